import { createHmac, randomUUID } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import type { SeenStore } from '../../nodes/BaasTrigger/dedup';
import { deliveryKey, recentDeliveries } from '../../nodes/BaasTrigger/dedup';
import { signWebhookBody } from '../../sandbox';
import { useBankFixture } from './harness/bankFixture';
import { TriggerWorkflow, waitFor } from './harness/triggerWorkflow';

// Few, quick retries: a refused delivery is retried by the bank, and these tests wait for its last attempt.
const fx = useBankFixture({ webhookRetry: { attempts: 2, baseDelayMs: 50 } });
const open: TriggerWorkflow[] = [];
const logged: string[] = [];

beforeAll(() => {
	const logger = Container.get(Logger);
	for (const level of ['error', 'warn', 'info', 'debug'] as const) {
		jest.spyOn(logger, level).mockImplementation((message: string, meta?: object) => {
			logged.push(`${level}: ${message} ${meta ? JSON.stringify(meta) : ''}`);
		});
	}
});
afterEach(async () => {
	await Promise.all(open.splice(0).map(async (wf) => await wf.close()));
});
afterAll(() => {
	jest.restoreAllMocks();
});

const SECRET = () => fx.bank.seed.webhookSecret;

async function triggerWorkflow(parameters: object, options: { credentialId?: string; preReadBody?: boolean } = {}) {
	const wf = await TriggerWorkflow.start(fx.credentials, { parameters: { ...parameters }, ...options });
	open.push(wf);
	return wf;
}

async function activeTrigger(parameters: object = { events: ['COLLECTION_SUCCESS'] }, options = {}) {
	const wf = await triggerWorkflow(parameters, options);
	await wf.activate();
	return wf;
}

function account(): string {
	return fx.bank.seed.accounts.find((a) => a.status === 'active')!.account_number;
}

function newReference(): string {
	return `COL-${randomUUID().slice(0, 8)}`;
}

/** Asks the sandbox bank to credit a collection (which it then delivers to the registered URLs). */
async function simulateCollection(reference: string, amount = '1500.00') {
	const answer = await fetch(`${fx.bank.url}/__sandbox/collections`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ account_number: account(), amount, reference }),
	});
	expect(answer.status).toBe(200);
}

function deliveriesOf(reference: string, url?: string) {
	return fx.bank.deliveries().filter((d) => d.reference === reference && (url === undefined || d.url === url));
}

/** Waits until the bank has finished delivering `count` attempts of `reference` and the workflow is idle. */
async function delivered(wf: TriggerWorkflow, reference: string, count = 1, url = wf.productionUrl) {
	await waitFor(() => deliveriesOf(reference, url).length >= count, `${count} deliveries of ${reference}`);
	await wf.idle();
	return deliveriesOf(reference, url);
}

async function ledger() {
	const answer = await fetch(`${fx.bank.url}/__sandbox/ledger`);
	return ((await answer.json()) as { data: { webhooks: Array<{ id: string; url: string; events: string[] }> } }).data;
}

async function post(url: string, body: string | Buffer, headers: Record<string, string>) {
	const answer = await fetch(url, { method: 'POST', body, headers });
	return { status: answer.status, text: await answer.text() };
}

function hmac(body: string | Buffer, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/** A delivery the bank really made (exact bytes and signature), for replaying and tampering. */
async function capturedDelivery(wf: TriggerWorkflow) {
	const reference = newReference();
	await simulateCollection(reference);
	const [first] = await delivered(wf, reference);
	expect(first.status).toBe(200);
	return { reference, body: first.body, signature: first.signature };
}

async function bankToken(): Promise<string> {
	const answer = await fetch(`${fx.bank.url}/api/v1/security/api/generate_token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: fx.bank.seed.clientId, client_secret: fx.bank.seed.clientSecret }),
	});
	return ((await answer.json()) as { data: { token: string } }).data.token;
}

describe('activation', () => {
	test('registers the production URL and the selected events with the bank and keeps them in static data', async () => {
		const before = fx.count('/customer/api/create_webhook');
		const wf = await activeTrigger({ events: ['TRANSFER_FAILED', 'COLLECTION_SUCCESS'] });
		expect(fx.count('/customer/api/create_webhook') - before).toBe(1);
		const registered = (await ledger()).webhooks.find((w) => w.url === wf.productionUrl);
		expect(registered).toBeDefined();
		expect([...registered!.events].sort()).toEqual(['COLLECTION_SUCCESS', 'TRANSFER_FAILED']);
		expect(wf.productionUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/);
		expect(wf.staticData['node:BaaS Trigger']).toEqual({
			webhookId: registered!.id,
			webhookUrl: wf.productionUrl,
			events: ['TRANSFER_FAILED', 'COLLECTION_SUCCESS'],
		});
	});

	test('activating again asks the bank nothing; changed events register again', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] });
		const before = fx.count('/customer/api/create_webhook');
		await wf.activate();
		expect(fx.count('/customer/api/create_webhook')).toBe(before);

		wf.parameters = { events: ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS'] };
		await wf.activate();
		expect(fx.count('/customer/api/create_webhook')).toBe(before + 1);
		const registered = (await ledger()).webhooks.find((w) => w.url === wf.productionUrl);
		expect([...registered!.events].sort()).toEqual(['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS']);
	});

	test('without a webhook secret activation fails with where to find it, and nothing is registered', async () => {
		fx.credentials.add('api-no-secret', 'baasApi', { ...fx.credentials.stored('api-1')!, webhookSecret: '' });
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-no-secret' });
		const before = fx.count('/customer/api/create_webhook');
		await expect(wf.activate()).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(
				/add the Webhook Secret from your bank dashboard \(Settings → Webhooks\) to the BaaS API credential/,
			),
		});
		expect(fx.count('/customer/api/create_webhook')).toBe(before);
		expect((await ledger()).webhooks.some((w) => w.url === wf.productionUrl)).toBe(false);
		expect(wf.staticData).toEqual({});
	});

	test('"Listen for test event" registers the /webhook-test/ URL beside the production one; an event reaches both', async () => {
		const wf = await activeTrigger();
		await wf.listenForTest();
		const urls = (await ledger()).webhooks.map((w) => w.url);
		expect(urls).toContain(wf.productionUrl);
		expect(urls).toContain(wf.testUrl);
		expect(wf.testUrl).toContain('/webhook-test/');
		// The test registration is not saved: the workflow's stored state still describes production.
		expect((wf.staticData['node:BaaS Trigger'] as { webhookUrl: string }).webhookUrl).toBe(wf.productionUrl);

		const reference = newReference();
		await simulateCollection(reference);
		await delivered(wf, reference, 1, wf.testUrl);
		await delivered(wf, reference, 1, wf.productionUrl);
		expect(wf.executions.map((e) => e.mode).sort()).toEqual(['manual', 'webhook']);
		for (const execution of wf.executions) expect(execution.json[0].data).toMatchObject({ reference_number: reference });
	});

	test('deactivation forgets the registration (not the events seen) and warns that the URL stays registered; n8n then refuses deliveries', async () => {
		const wf = await activeTrigger();
		await capturedDelivery(wf);
		logged.length = 0;
		await wf.deactivate();
		expect(Object.keys(wf.staticData['node:BaaS Trigger'] as object)).toEqual(['seenDeliveries']);
		const warning = logged.find((line) => line.startsWith('warn:') && line.includes('stays registered at the bank'));
		expect(warning).toContain(wf.productionUrl);
		expect(warning).toContain('no endpoint to delete a webhook');
		expect((await ledger()).webhooks.some((w) => w.url === wf.productionUrl)).toBe(true);

		const reference = newReference();
		await simulateCollection(reference);
		const attempts = await delivered(wf, reference, 2);
		expect(attempts.map((d) => d.status)).toEqual([404, 404]);
		expect(wf.executions).toHaveLength(1);

		// Activating again registers again, since the stored registration is gone.
		const before = fx.count('/customer/api/create_webhook');
		await wf.activate();
		expect(fx.count('/customer/api/create_webhook')).toBe(before + 1);
	});

	test('a replay of captured bytes after deactivate and re-activate starts nothing', async () => {
		const wf = await activeTrigger();
		const captured = await capturedDelivery(wf);
		await wf.deactivate();
		recentDeliveries.forget();
		await wf.activate();
		const answer = await post(wf.productionUrl, captured.body, { 'content-type': 'application/json', 'x-service-signature': captured.signature });
		await wf.idle();
		expect(answer.status).toBe(200);
		expect(wf.executions).toHaveLength(1);
	});
});

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
		await waitFor(() => deliveriesOf(reference, wf.productionUrl).length >= 2, 'both copies answered');
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
		const seen = (wf.staticData['node:BaaS Trigger'] as { seenDeliveries: SeenStore }).seenDeliveries;
		expect(Object.keys(seen.current.keys)).toEqual([deliveryKey('COLLECTION_SUCCESS', { reference_number: captured.reference }, Buffer.alloc(0))]);
		recentDeliveries.forget();
		const answer = await post(wf.productionUrl, captured.body, {
			'content-type': 'application/json',
			'x-service-signature': captured.signature,
		});
		await wf.idle();
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
				'x-service-signature': `sha256=${hmac(body, SECRET())}`,
				'x-service-delivery-id': id,
			});
			expect(answer.status).toBe(200);
		}
		await wf.idle();
		expect(wf.items.map((item) => (item.data as { amount: string }).amount)).toEqual(['5.00', '6.00']);
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
