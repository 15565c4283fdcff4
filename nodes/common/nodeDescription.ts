import type { INodePropertyOptions } from 'n8n-workflow';

import { resourceDescriptions, resourceSelector } from './actions/resources';

/**
 * Shared by the BaaS and BaaS Trigger nodes: n8n's node picker shows the two as one "BaaS" entry and gives
 * it the trigger's description, so both carry the same text and the entry reads right when adding an action.
 */
export const BAAS_DESCRIPTION =
	'Banking-as-a-Service as an API client: payouts, balances, transactions, virtual accounts, banks and webhooks, and a trigger for collections and transfer outcomes';

/** "resource.operation" → "Operation Name: Resource Name", for the canvas subtitle. */
function subtitles(): Record<string, string> {
	const names: Record<string, string> = {};
	for (const resource of resourceSelector.options as INodePropertyOptions[]) {
		const selector = resourceDescriptions.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of (selector?.options ?? []) as INodePropertyOptions[]) {
			names[`${resource.value}.${operation.value}`] = `${operation.name}: ${resource.name}`;
		}
	}
	return names;
}

/** The canvas subtitle: what a person reads ("Get Balance: Account"), not the stored values. */
export const SUBTITLE = `={{ ${JSON.stringify(subtitles())}[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;

