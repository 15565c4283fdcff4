import type { INodeProperties } from 'n8n-workflow';

import { AUTHENTICATION_PROPERTY } from '../common/authentication';
import { EVENTS_PROPERTY, optionsCollection, outputOption } from '../common/events';

/** The name the editor shows (see BaasPollTrigger.node.ts for why it has this form) and the logs use. */
export const POLL_TRIGGER_DISPLAY_NAME = 'BaaS (Polling) Trigger';

/** What n8n shows when the workflow is published (activated); without it n8n says "regularly check BaaS (Polling)". */
export const POLL_TRIGGER_ACTIVATION_MESSAGE =
	'Your workflow will now ask the bank for new collections and transfer outcomes at the Poll Times you set, and run once for each new event.';

/** The Poll Trigger's form (UI only; the logic reads it through settings.ts). */
export const pollTriggerProperties: INodeProperties[] = [
	AUTHENTICATION_PROPERTY,
	EVENTS_PROPERTY,
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0823100001',
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
				'Where a new trigger starts: it also emits the events since this moment (a backfill). Used once, when the trigger has no saved place; changing or clearing it later changes nothing. To start over, duplicate the node and delete the old one. Without it the trigger starts from now and emits no history.',
		},
		{
			displayName: 'Requests per Poll',
			name: 'requestBudget',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 20,
			description:
				'The most list and status requests one poll makes: at least 3 for Collection Success alone, 4 for Transfer Success, 7 for Collection Success with Transfer Success, 6 for Transfer Failed with or without Transfer Success, 7 for Collection Success with Transfer Failed (8 with the dashboard credential). A larger backlog is delivered over the next polls, oldest first. Lower it if the bank limits your requests per minute; near the minimum, behind a bank that serves few records a page, a transfer already pending when the trigger starts can have its outcome missed (n8n\'s log says so) and a record the bank writes late can come a poll or more after newer ones.',
		},
	]),
];
