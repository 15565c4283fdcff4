import type { INodeProperties } from 'n8n-workflow';

import { EVENT_OPTIONS } from '../BaasTrigger/options';

/** The Poll Trigger's form (UI only; the logic reads it through settings.ts). */
export const pollTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'API Client',
				value: 'apiClient',
				description: 'Client ID and secret of your backend integration (the /api/ endpoints)',
			},
			{
				name: 'Dashboard User',
				value: 'dashboardUser',
				description: 'E-mail and password of a dashboard user (the /web/ endpoints)',
			},
		],
		default: 'apiClient',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		description: 'The bank events that start this workflow. Select at least one.',
		options: EVENT_OPTIONS,
	},
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		default: '',
		placeholder: '0823000001',
		description: 'Only events of this 10-digit account. Leave empty for every account of your business.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'Whole Event',
						value: 'event',
						description: 'The event kind, its data and when it happened, as the BaaS Trigger sends it, plus source "poll"',
					},
					{
						name: 'Event Data Only',
						value: 'data',
						description: 'Only the record the event is about (the transaction or transfer)',
					},
				],
				default: 'event',
				description: 'What each output item contains',
			},
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'dateTime',
				default: '',
				description:
					'On first activation, also emit the events since this moment (a backfill). Without it the trigger starts from now and emits no history.',
			},
		],
	},
];
