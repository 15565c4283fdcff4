import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIALS_BY_AUTHENTICATION } from '../Baas/authentication';
import { EVENTS_SUBTITLE } from '../BaasTrigger/options';
import { pollTriggerProperties } from './description';
import { pollForEvents } from './poll';
import { readSettings } from './settings';
import { fetchTestEvent } from './testEvent';

/** Thin shell: the form (description.ts), scheduled polls (poll.ts) and Fetch Test Event (testEvent.ts). */
export class BaasPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BaaS Poll Trigger',
		name: 'baasPollTrigger',
		icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: EVENTS_SUBTITLE,
		description:
			'Starts the workflow on collections and transfer outcomes by asking the bank on a schedule; needs no public URL',
		defaults: { name: 'BaaS Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: CREDENTIALS_BY_AUTHENTICATION,
		properties: pollTriggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		if (this.getMode() === 'manual') return await fetchTestEvent(this, settings);
		return await pollForEvents(this, settings);
	}
}
