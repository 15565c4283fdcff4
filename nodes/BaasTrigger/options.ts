import type { INodePropertyOptions } from 'n8n-workflow';

/** The trigger's options, shared by its form and its delivery handling. */
export const DEFAULT_WINDOW_MINUTES = 60;

export interface TriggerOptions {
	dropDuplicates?: boolean;
	duplicateWindowMinutes?: number;
	output?: 'event' | 'data';
}

/** The bank's event kinds, as the Events picker of both triggers (webhook and poll) offers them. */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Collection Success',
		value: 'COLLECTION_SUCCESS',
		description: 'An inbound payment landed on one of your accounts',
	},
	{
		name: 'Transfer Failed',
		value: 'TRANSFER_FAILED',
		description: 'A transfer failed: no funds were debited, or the debit was reversed',
	},
	{
		name: 'Transfer Success',
		value: 'TRANSFER_SUCCESS',
		description: 'A transfer reached the beneficiary',
	},
];

export type EventKind = 'COLLECTION_SUCCESS' | 'TRANSFER_SUCCESS' | 'TRANSFER_FAILED';
