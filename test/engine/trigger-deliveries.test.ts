/** BaaS Trigger deliveries (delivery.ts): what a signed event yields, and bodies or kinds that start nothing. */
import { signWebhookBody } from '../../sandbox';
import { newReference, post, useTriggerBank } from './harness/triggerBank';

const { fx, secret, activeTrigger, account, simulateCollection, delivered, bankToken } = useTriggerBank();

describe('deliveries', () => {
	test('a collection arrives signed and yields exactly one item with the event payload', async () => {
		const wf = await activeTrigger();
		const reference = newReference();
		await simulateCollection(reference, '2500.50');
		const [attempt] = await delivered(wf, reference);
		expect(attempt.status).toBe(200);
		expect(attempt.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
		expect(wf.executions).toHaveLength(1);
		expect(wf.items).toHaveLength(1);
		const item = wf.items[0];
		const sent = JSON.parse(attempt.body) as { created_at: string };
		expect(item).toMatchObject({
			event: 'COLLECTION_SUCCESS',
			created_at: sent.created_at,
			data: { reference_number: reference, amount: '2500.50', account_number: account(), transaction_type: 'credit' },
			headers: {
				'x-service-event': 'COLLECTION_SUCCESS',
				'x-service-delivery-id': attempt.delivery_id,
				'user-agent': expect.any(String),
				'content-type': expect.stringContaining('application/json'),
			},
		});
		expect(typeof (item.data as { amount: unknown }).amount).toBe('string');
		expect(Number.isNaN(Date.parse(item.receivedAt as string))).toBe(false);
		expect(item.headers).not.toHaveProperty('x-service-signature');
		// The item flows on to the next node.
		expect(wf.executions[0].nextJson).toEqual([item]);
	});

	test('"Event Data Only" outputs just the record', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { output: 'data' } });
		const reference = newReference();
		await simulateCollection(reference, '10.00');
		await delivered(wf, reference);
		expect(wf.items).toHaveLength(1);
		expect(wf.items[0]).toMatchObject({ reference_number: reference, amount: '10.00' });
		expect(wf.items[0]).not.toHaveProperty('event');
	});

	test('a kind the trigger does not listen to is acknowledged and starts nothing', async () => {
		const wf = await activeTrigger({ events: ['TRANSFER_SUCCESS'] });
		// The URL is also registered for collections (say, by an earlier selection or another tool): the bank sends them.
		const token = await bankToken();
		const register = await fetch(`${fx.bank.url}/api/v1/customer/api/create_webhook`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
			body: JSON.stringify({ url: wf.productionUrl, events: ['TRANSFER_SUCCESS', 'COLLECTION_SUCCESS'] }),
		});
		expect(register.status).toBe(200);
		const reference = newReference();
		await simulateCollection(reference);
		const [attempt] = await delivered(wf, reference);
		expect(attempt.status).toBe(200);
		expect(wf.received.at(-1)).toMatchObject({ status: 200, executed: false });
		expect(wf.executions).toHaveLength(0);
	});

	test('the kind is also read from event_type or type', async () => {
		const wf = await activeTrigger({ events: ['TRANSFER_FAILED'] });
		for (const field of ['event_type', 'type']) {
			const body = JSON.stringify({ [field]: 'TRANSFER_FAILED', data: { reference_number: `TRF-${field}`, status: 'failed' } });
			const answer = await post(wf.productionUrl, body, {
				'content-type': 'application/json',
				'x-service-signature': signWebhookBody(body, secret()),
			});
			expect(answer.status).toBe(200);
		}
		await wf.idle();
		expect(wf.items.map((i) => [i.event, (i.data as { reference_number: string }).reference_number])).toEqual([
			['TRANSFER_FAILED', 'TRF-event_type'],
			['TRANSFER_FAILED', 'TRF-type'],
		]);
	});

	test('a validly signed body that is not JSON gets 400 and starts nothing', async () => {
		const wf = await activeTrigger();
		// Sent as text/plain: for application/json n8n itself answers 422 before the node runs.
		const body = '{"event": "COLLECTION_SUCCESS", "data": ';
		const answer = await post(wf.productionUrl, body, {
			'content-type': 'text/plain',
			'x-service-signature': signWebhookBody(body, secret()),
		});
		await wf.idle();
		expect(answer.status).toBe(400);
		expect(wf.executions).toHaveLength(0);
	});

	test('the body is read by the node when n8n has not read it already', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] }, { preReadBody: false });
		const reference = newReference();
		await simulateCollection(reference);
		const [attempt] = await delivered(wf, reference);
		expect(attempt.status).toBe(200);
		expect(wf.items).toHaveLength(1);
		expect(wf.items[0].data).toMatchObject({ reference_number: reference });
	});
});
