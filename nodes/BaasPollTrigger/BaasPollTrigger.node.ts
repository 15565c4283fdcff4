import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { API_CLIENT_CREDENTIAL, DASHBOARD_USER_CREDENTIAL } from '../common/authentication';
import { baasSignIn } from '../common/credentialTest';
import { EVENTS_SUBTITLE } from '../common/events';
import { POLL_TRIGGER_ACTIVATION_MESSAGE, POLL_TRIGGER_DISPLAY_NAME, pollTriggerProperties } from './description';
import { pollForEvents } from './poll';
import { readSettings } from './settings';
import { fetchTestEvent } from './testEvent';

/**
 * Thin shell: the form (description.ts), scheduled polls (poll.ts) and Fetch Test Event (testEvent.ts).
 *
 * The display name is what n8n's editor shortens: its node picker drops the first "Trigger" of a trigger that
 * has several actions (one per event), and its messages name the service as the display name without " trigger"
 * (so "BaaS Poll Trigger" read "BaaS Poll"). "BaaS (Polling) Trigger" reads "BaaS (Polling)" in both; the
 * publish message is our own (activationMessage). The type name stays baasPollTrigger: saved workflows use it.
 */
export class BaasPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: POLL_TRIGGER_DISPLAY_NAME,
		name: 'baasPollTrigger',
		icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: EVENTS_SUBTITLE,
		description:
			'Starts the workflow on collections and transfer outcomes by asking the bank on a schedule; needs no public URL',
		defaults: { name: POLL_TRIGGER_DISPLAY_NAME },
		activationMessage: POLL_TRIGGER_ACTIVATION_MESSAGE,
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Written out so that n8n's verification lint sees the Test function (testedBy) of both credentials.
		credentials: [
			{ ...API_CLIENT_CREDENTIAL, name: 'baasApi', testedBy: 'baasSignIn' },
			{ ...DASHBOARD_USER_CREDENTIAL, name: 'baasDashboardApi', testedBy: 'baasSignIn' },
		],
		properties: pollTriggerProperties,
	};

	methods = { credentialTest: { baasSignIn } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		if (this.getMode() === 'manual') return await fetchTestEvent(this, settings);
		return await pollForEvents(this, settings);
	}
}
