import { recentDeliveries } from '../../nodes/BaasTrigger/dedup';
import { signWebhookBody } from '../../sandbox';
import { waitFor } from '../support/waitFor';
import { useTriggerBank } from './harness/triggerBank';
import type { TriggerWorkflow } from './harness/triggerWorkflow';

const { fx, logged, SECRET, activeTrigger, account, newReference, simulateCollection, deliveriesOf, delivered, post, hmac, capturedDelivery, bankToken } = useTriggerBank();

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

	describe('refused with 401 and no execution', () => {
		let wf: TriggerWorkflow;
		let captured: { reference: string; body: string; signature: string };
		beforeEach(async () => {
			wf = await activeTrigger();
			captured = await capturedDelivery(wf);
			expect(wf.executions).toHaveLength(1);
		});

		async function expectRefused(body: string, headers: Record<string, string>) {
			const answer = await post(wf.productionUrl, body, { 'content-type': 'application/json', ...headers });
			await wf.idle();
			expect(answer.status).toBe(401);
			expect(JSON.parse(answer.text)).toEqual({ message: 'invalid signature' });
			expect(wf.executions).toHaveLength(1);
			return answer;
		}

		test('a tampered body (amount changed, original signature)', async () => {
			const tampered = captured.body.replace(/"amount":"[^"]+"/, '"amount":"999999.00"');
			expect(tampered).not.toBe(captured.body);
			await expectRefused(tampered, { 'x-service-signature': captured.signature });
		});

		test('a missing signature header', async () => {
			await expectRefused(captured.body, {});
		});

		test('a truncated signature', async () => {
			await expectRefused(captured.body, { 'x-service-signature': captured.signature.slice(0, 40) });
		});

		test('a signature made with another secret', async () => {
			await expectRefused(captured.body, { 'x-service-signature': `sha256=${hmac(captured.body, 'not-the-secret')}` });
		});

		test('a replay of the exact bytes and signature is accepted by the check (then dropped as a duplicate)', async () => {
			// Control for the cases above: the captured delivery itself passes the signature check.
			const answer = await post(wf.productionUrl, captured.body, {
				'content-type': 'application/json',
				'x-service-signature': captured.signature,
			});
			await wf.idle();
			expect(answer.status).toBe(200);
			expect(wf.executions).toHaveLength(1);
		});

		test('neither the answers nor the logs show the secret or the expected digest', async () => {
			logged.length = 0;
			const tampered = captured.body.replace('COLLECTION_SUCCESS', 'TRANSFER_SUCCESS');
			const answers = [
				await expectRefused(tampered, { 'x-service-signature': captured.signature }),
				await expectRefused(captured.body, { 'x-service-signature': 'sha256=00' }),
			];
			const expectedDigest = hmac(tampered, SECRET());
			const everything = [...answers.map((a) => a.text), ...logged].join('\n');
			expect(logged.some((line) => line.includes('refused a delivery'))).toBe(true);
			expect(everything).not.toContain(SECRET());
			expect(everything).not.toContain(expectedDigest);
			expect(everything).not.toContain(captured.signature.slice(7));
		});
	});

	test('when the bank signs with another secret than the credential holds, every attempt gets 401', async () => {
		fx.credentials.add('api-other-secret', 'baasApi', { ...fx.credentials.stored('api-1')!, webhookSecret: 'rotated-elsewhere' });
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-other-secret' });
		const reference = newReference();
		await simulateCollection(reference);
		const attempts = await delivered(wf, reference, 2);
		expect(attempts.map((d) => d.status)).toEqual([401, 401]);
		expect(wf.executions).toHaveLength(0);
	});

	test('with the secret removed from the credential after activation, deliveries are refused (even signed with an empty key)', async () => {
		fx.credentials.add('api-secret-later-removed', 'baasApi', { ...fx.credentials.stored('api-1')! });
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-secret-later-removed' });
		fx.credentials.add('api-secret-later-removed', 'baasApi', { ...fx.credentials.stored('api-1')!, webhookSecret: '' });
		const body = JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { reference_number: newReference() } });
		const answer = await post(wf.productionUrl, body, {
			'content-type': 'application/json',
			'x-service-signature': `sha256=${hmac(body, '')}`,
		});
		await wf.idle();
		expect(answer.status).toBe(401);
		expect(wf.executions).toHaveLength(0);
	});

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

	test('with Drop Duplicate Deliveries off, the same fault produces two items', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { dropDuplicates: false } });
		fx.bank.addFault({ duplicateWebhooks: true, match: wf.webhookId });
		const reference = newReference();
		await simulateCollection(reference);
		await delivered(wf, reference, 2);
		expect(wf.items).toHaveLength(2);
		expect(wf.items.map((i) => (i.data as { reference_number: string }).reference_number)).toEqual([reference, reference]);
	});

	test('a redelivery after n8n restarted is still dropped: the seen keys were saved with the execution', async () => {
		const wf = await activeTrigger();
		const captured = await capturedDelivery(wf);
		const seen = (wf.staticData['node:BaaS Trigger'] as { seenDeliveries: Record<string, number> }).seenDeliveries;
		expect(Object.keys(seen)).toEqual([`COLLECTION_SUCCESS:${captured.reference}`]);
		recentDeliveries.forget();
		const answer = await post(wf.productionUrl, captured.body, {
			'content-type': 'application/json',
			'x-service-signature': captured.signature,
		});
		await wf.idle();
		expect(answer.status).toBe(200);
		expect(wf.executions).toHaveLength(1);
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
				'x-service-signature': signWebhookBody(body, SECRET()),
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
			'x-service-signature': signWebhookBody(body, SECRET()),
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
