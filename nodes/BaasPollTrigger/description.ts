import type { INodeProperties } from 'n8n-workflow';

import { AUTHENTICATION_PROPERTY } from '../Baas/authentication';
import { EVENTS_PROPERTY, optionsCollection, outputOption } from '../BaasTrigger/options';

/** The Poll Trigger's form (UI only; the logic reads it through settings.ts). */
export const pollTriggerProperties: INodeProperties[] = [
	AUTHENTICATION_PROPERTY,
	EVENTS_PROPERTY,
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		default: '',
		placeholder: '0823000001',
		description: 'Only events of this 10-digit account. Leave empty for every account of your business.',
	},
	optionsCollection([
		outputOption('The event kind, its data and when it happened, as the BaaS Trigger sends it, plus source "poll"'),
		{
			displayName: 'Start From',
			name: 'startFrom',
			type: 'dateTime',
			default: '',
			description:
				'On first activation, also emit the events since this moment (a backfill). Without it the trigger starts from now and emits no history.',
		},
	]),
];
