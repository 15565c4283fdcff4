/**
 * create_webhook (README assumption: data { id, url, events, created_at }). One registration per URL: the same URL
 * again updates its events and re-enables it, and is delivered to once (sandbox/README.md, "Webhooks").
 */
import { z } from 'zod';
import { businessOf, route, V1, type RouteDef } from '../http/routeDefinition';
import { EVENT_KINDS, type EventKind, type Webhook } from '../state/records';
import { iso } from '../data/time';
import { httpUrl } from '../http/requestValidation';

export const webhookRoutes: RouteDef[] = [
	route({
		path: `${V1}/customer/api/create_webhook`,
		auth: 'api',
		schema: z
			.object({
				url: httpUrl,
				events: z.array(z.enum(EVENT_KINDS as [EventKind, ...EventKind[]])).min(1, { message: 'must list at least one event' }),
			})
			.strict(),
		handler: (ctx) => {
			const { bank } = ctx.rt;
			const businessId = businessOf(ctx).id;
			const events = [...new Set(ctx.body.events)];
			let hook = bank.webhooks.find((w) => w.businessId === businessId && w.url === ctx.body.url);
			if (hook) {
				hook.events = events;
				hook.updatedAtMs = ctx.now;
				// Registering a disabled URL again is how a receiver says it is back.
				delete hook.disabledAtMs;
				delete hook.deadDeliveries;
			} else {
				hook = { id: bank.newId(), businessId, url: ctx.body.url, events, createdAtMs: ctx.now, updatedAtMs: ctx.now } satisfies Webhook;
				bank.webhooks.push(hook);
			}
			return {
				data: { id: hook.id, url: hook.url, events: hook.events, created_at: iso(hook.createdAtMs) },
				message: 'Webhook registered successfully',
			};
		},
	}),
];
