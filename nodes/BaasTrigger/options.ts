import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The webhook trigger's own options (Drop Duplicate Deliveries, Duplicate Window), shared by its form and its
 * delivery handling; the Events picker and the Output option both triggers show are in ../common/events.ts.
 */
export const DEFAULT_WINDOW_MINUTES = 60;

export interface TriggerOptions {
	dropDuplicates?: boolean;
	/** A number from the form; from an expression, anything. */
	duplicateWindowMinutes?: unknown;
	output?: 'event' | 'data';
}

/** The Duplicate Window in minutes: a number (or a numeric string, as expressions give) of at least 1, else undefined. */
function windowMinutes(value: unknown): number | undefined {
	if (value === undefined) return DEFAULT_WINDOW_MINUTES;
	const minutes = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	return Number.isFinite(minutes) && minutes >= 1 ? minutes : undefined;
}

function shown(value: unknown): string {
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
	return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function windowError(context: IHookFunctions | IWebhookFunctions, value: unknown): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Duplicate Window (Minutes) must be a number of minutes, at least 1 (got ${shown(value)})`, {
		description:
			'Options → Duplicate Window (Minutes): enter a number such as 60, or an expression that gives a number such as {{ 24 * 60 }}. To keep every copy of an event, turn Drop Duplicate Deliveries off instead.',
	});
}

/**
 * Refuses, at activation (and at "Listen for test event"), options the trigger cannot apply: a Duplicate
 * Window that is not a number would otherwise turn duplicate dropping off without a word.
 */
export function assertValidOptions(context: IHookFunctions): void {
	const options = context.getNodeParameter('options', {}) as TriggerOptions;
	if (options.dropDuplicates === false) return;
	if (windowMinutes(options.duplicateWindowMinutes) === undefined) throw windowError(context, options.duplicateWindowMinutes);
}

/**
 * The Duplicate Window of one delivery, in milliseconds. Activation refused a window that was not a number;
 * should an expression give one later, the default window applies (dropping stays on) and the log says so.
 */
export function duplicateWindowMs(context: IWebhookFunctions, options: TriggerOptions): number {
	const minutes = windowMinutes(options.duplicateWindowMinutes);
	if (minutes !== undefined) return minutes * 60_000;
	context.logger.warn(`BaaS Trigger "${context.getNode().name}": ${windowError(context, options.duplicateWindowMinutes).message}; the default of ${DEFAULT_WINDOW_MINUTES} minutes applies`);
	return DEFAULT_WINDOW_MINUTES * 60_000;
}
