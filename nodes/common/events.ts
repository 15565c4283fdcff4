/**
 * The events' vocabulary both triggers speak: the bank's event kinds, the Events picker and the canvas subtitle
 * naming them, and the Output and Options properties the webhook and the poll trigger show alike.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsOf, WEBHOOK_EVENTS } from './optionLists';

/** The bank's event kinds (one list with Webhook → Create), as the Events picker of both triggers offers them. */
export const EVENT_OPTIONS: INodePropertyOptions[] = optionsOf(WEBHOOK_EVENTS);

export type EventKind = (typeof WEBHOOK_EVENTS)[number]['value'];

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

/** Both triggers' canvas subtitle: the selected events as a person reads them ("Collection Success"), not their values. */
export const EVENTS_SUBTITLE = `={{ ($parameter["events"] || []).map((event) => (${JSON.stringify(
	Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name])),
)})[event] || event).join(", ") }}`;

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

/** The Options collection of both triggers, holding `options` (each trigger's own, in alphabetical order). */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}
