import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

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

/** The Events picker, the same on the webhook and the poll trigger. */
export const EVENTS_PROPERTY: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: [],
	description: 'The bank events that start this workflow. Select at least one.',
	options: EVENT_OPTIONS,
};

/** The Output option of both triggers; only what a whole event holds differs between them. */
export function outputOption(wholeEvent: string): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{ name: 'Whole Event', value: 'event', description: wholeEvent },
			{
				name: 'Event Data Only',
				value: 'data',
				description: 'Only the record the event is about (the transaction or transfer)',
			},
		],
		default: 'event',
		description: 'What each output item contains',
	};
}
