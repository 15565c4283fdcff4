/** BaaS Trigger duplicate filter (deliveryKey.ts, seenStore.ts, recentDeliveries.ts): a repeated delivery of the same event starts one execution, also across restarts. */
import { randomUUID } from 'node:crypto';

import { deliveryKey } from '../../nodes/BaasTrigger/deliveryKey';
import { recentDeliveries } from '../../nodes/BaasTrigger/recentDeliveries';
import type { SeenStore } from '../../nodes/BaasTrigger/seenStore';
import { keysIn } from '../../nodes/BaasTrigger/seenStore';
import { waitFor } from '../support/waitFor';
import { hangUpBeforeAnswer, hmac, newReference, post, replay, useTriggerBank } from './harness/triggerBank';

const { fx, secret, activeTrigger, simulateCollection, deliveriesOf, delivered, capturedDelivery } = useTriggerBank();

describe('deliveries', () => {
	test('a duplicate delivery (sandbox fault) produces no second item', async () => {
		const wf = await activeTrigger();
		fx.bank.addFault({ duplicateWebhooks: true, match: wf.webhookId });
		const reference = newReference();
		await simulateCollection(reference);
		const attempts = await delivered(wf, reference, 2);
		expect(attempts).toHaveLength(2);
		expect(attempts[0].delivery_id).toBe(attempts[1].delivery_id);
		expect(attempts.map((d) => d.status)).toEqual([200, 200]);
		expect(wf.executions).toHaveLength(1);
		expect(wf.items).toHaveLength(1);
	});

	test('a duplicate arriving while the first execution still runs (static data not yet saved) is dropped', async () => {
		const wf = await activeTrigger();
		const release = wf.holdExecutions();
		fx.bank.addFault({ duplicateWebhooks: true, match: wf.webhookId });
		const reference = newReference();
		await simulateCollection(reference);
		await waitFor('both copies answered', () => deliveriesOf(reference, wf.productionUrl).length >= 2);
		expect(wf.received.map((r) => [r.status, r.executed])).toEqual([
			[200, true],
			[200, false],
		]);
		expect(wf.staticData['node:BaaS Trigger']).not.toHaveProperty('seenDeliveries');
		release();
		await wf.idle();
		expect(wf.items).toHaveLength(1);
		expect(wf.staticData['node:BaaS Trigger']).toHaveProperty('seenDeliveries');
	});

	test("the bank's retry after n8n failed to start the execution (HTTP 500) runs; it is not dropped as a duplicate", async () => {
		const wf = await activeTrigger();
		wf.failStarts(1);
		const reference = newReference();
		await simulateCollection(reference);
		const attempts = await delivered(wf, reference, 2);
		expect(attempts.map((d) => d.status)).toEqual([500, 200]);
		expect(wf.received.map((r) => [r.status, r.executed])).toEqual([
			[500, false],
			[200, true],
		]);
		expect(wf.items).toHaveLength(1);
	});

	/** A signed delivery of a new event, as the bank sends it (and resends it, byte for byte, when it retries). */
	function signedEvent() {
		const reference = newReference();
		const body = JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { reference_number: reference, amount: '1500.00' }, created_at: new Date().toISOString() });
		return { reference, body, headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${hmac(body, secret())}` } };
	}

	test('a bank that hangs up after n8n started the execution, then retries: the event runs once', async () => {
		const wf = await activeTrigger();
		const release = wf.holdAnswers();
		const { body, headers } = signedEvent();
		await hangUpBeforeAnswer(wf, body, headers);
		release();
		await wf.idle();
		expect(wf.executions).toHaveLength(1);
		const retry = await post(wf.productionUrl, body, headers);
		await wf.idle();
		expect(retry.status).toBe(200);
		expect(wf.executions).toHaveLength(1);
		// Also after a restart of n8n: the key was saved with the execution.
		recentDeliveries.forget();
		expect((await post(wf.productionUrl, body, headers)).status).toBe(200);
		await wf.idle();
		expect(wf.executions).toHaveLength(1);
	});

	test('a bank that hangs up and then n8n fails to start the execution (500): the retry runs, once', async () => {
		const wf = await activeTrigger();
		const release = wf.holdAnswers();
		wf.failStarts(1);
		const { body, headers } = signedEvent();
		await hangUpBeforeAnswer(wf, body, headers);
		release();
		await wf.idle();
		expect(wf.received.map((r) => [r.status, r.executed])).toEqual([[500, false]]);
		for (let attempt = 0; attempt < 2; attempt++) expect((await post(wf.productionUrl, body, headers)).status).toBe(200);
		await wf.idle();
		expect(wf.executions).toHaveLength(1);
	});

	test('with Drop Duplicate Deliveries off, the same fault produces two items', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { dropDuplicates: false } });
		fx.bank.addFault({ duplicateWebhooks: true, match: wf.webhookId });
		const reference = newReference();
		await simulateCollection(reference);
		await delivered(wf, reference, 2);
		expect(wf.items).toHaveLength(2);
		expect(wf.items.map((i) => (i.data as { reference_number: string }).reference_number)).toEqual([reference, reference]);
	});

	test.each([
		[true, 1],
		[false, 2],
	])(
		'a bank that keeps a second registration of one URL (the trigger registers at every start) delivers each event twice, with two delivery ids: Drop Duplicate Deliveries %s → %i execution(s)',
		async (dropDuplicates, executions) => {
			const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { dropDuplicates } });
			// Such a bank, after the trigger registered its URL again: two registrations of the same URL.
			const registration = fx.bank.bank.webhooks.find((w) => w.url === wf.productionUrl)!;
			fx.bank.bank.webhooks.push({ ...registration, id: randomUUID(), events: [...registration.events] });
			const reference = newReference();
			await simulateCollection(reference);
			const attempts = await delivered(wf, reference, 2);
			expect(attempts.map((d) => d.status)).toEqual([200, 200]);
			expect(new Set(attempts.map((d) => d.delivery_id)).size).toBe(2);
			expect(wf.executions).toHaveLength(executions);
			expect(wf.items.map((i) => (i.data as { reference_number: string }).reference_number)).toEqual(Array(executions).fill(reference));
		},
	);

	test('a redelivery after n8n restarted is still dropped: the seen keys were saved with the execution', async () => {
		const wf = await activeTrigger();
		const captured = await capturedDelivery(wf);
		const seen = (wf.staticData['node:BaaS Trigger'] as { seenDeliveries: SeenStore }).seenDeliveries;
		expect(keysIn(seen.current)).toEqual([deliveryKey('COLLECTION_SUCCESS', { reference_number: captured.reference }, Buffer.alloc(0))]);
		recentDeliveries.forget();
		const answer = await replay(wf, captured);
		expect(answer.status).toBe(200);
		expect(wf.executions).toHaveLength(1);
	});

	test('an event without a reference is one event per signed body, whatever X-Service-Delivery-Id says', async () => {
		const wf = await activeTrigger({ events: ['TRANSFER_FAILED'] });
		const signed = JSON.stringify({ event: 'TRANSFER_FAILED', data: { amount: '5.00', status: 'failed' }, created_at: new Date().toISOString() });
		const other = signed.replace('5.00', '6.00');
		for (const [body, id] of [[signed, 'd-1'], [signed, 'd-2'], [signed, 'd-3'], [other, 'd-1']]) {
			const answer = await post(wf.productionUrl, body, {
				'content-type': 'application/json',
				'x-service-signature': `sha256=${hmac(body, secret())}`,
				'x-service-delivery-id': id,
			});
			expect(answer.status).toBe(200);
		}
		await wf.idle();
		expect(wf.items.map((item) => (item.data as { amount: string }).amount)).toEqual(['5.00', '6.00']);
	});
});
