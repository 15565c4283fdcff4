import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { optionsOf, valuesOf, WEBHOOK_EVENTS } from '../../optionLists';
import { bankRequest } from '../../transport/request';
import { httpUrlSchema, validField } from '../../validation';
import { writeOptions } from '../commonFields';
import { writeOnce } from '../lostAnswer';

export const changesState = true;

const EVENT_KINDS = valuesOf(WEBHOOK_EVENTS);

const eventsSchema = z
	.array(z.enum(EVENT_KINDS, { errorMap: () => ({ message: `must list only ${EVENT_KINDS.join(', ')}` }) }), {
		invalid_type_error: 'must be a list of event kinds',
	})
	.min(1, 'must list at least one event')
	.transform((events) => [...new Set(events)]);

export const description: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/webhooks/bank',
		description:
			'Address the bank will POST signed events to. To receive them in n8n, use a BaaS Trigger node instead: it registers its own URL.',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: optionsOf(WEBHOOK_EVENTS),
		default: [],
		description: 'Which events the bank sends to the URL',
	},
	writeOptions(),
];

/** Registers (or updates) the address the bank sends signed webhook events to. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const url = validField(this, itemIndex, 'URL', httpUrlSchema, this.getNodeParameter('url', itemIndex));
	const events = validField(this, itemIndex, 'Events', eventsSchema, this.getNodeParameter('events', itemIndex));
	// The bank keeps one registration per URL (registering it again updates its events), so one re-send is safe.
	return await writeOnce(this, itemIndex, async () => await bankRequest<IDataObject>(this, 'createWebhook', { url, events }, { itemIndex, variant: 'api' }), {
		what: `Webhook registration of ${url}`,
		howToCheck: `Run Webhook → Create again with the same URL ${url} (the bank keeps one registration per URL), or look in the bank dashboard (Settings → Webhooks)`,
		resendIsSafe: true,
	});
}
