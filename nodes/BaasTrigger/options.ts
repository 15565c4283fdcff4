/** The trigger's options, shared by its form and its delivery handling. */
export const DEFAULT_WINDOW_MINUTES = 60;

export interface TriggerOptions {
	dropDuplicates?: boolean;
	duplicateWindowMinutes?: number;
	output?: 'event' | 'data';
}
