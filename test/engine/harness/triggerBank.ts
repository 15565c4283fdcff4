/**
 * The bank, hooks and helpers the trigger engine tests share (trigger-*.test.ts): n8n's logger captured into
 * `logged`, every started workflow closed after each test, and collections simulated at the sandbox bank.
 */
import { createHmac, randomUUID } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { waitFor } from '../../support/waitFor';
import { useBankFixture } from './bankFixture';
import { TriggerWorkflow } from './triggerWorkflow';

export function useTriggerBank() {
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
		await waitFor(`${count} deliveries of ${reference}`, () => deliveriesOf(reference, url).length >= count);
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

	return { fx, open, logged, SECRET, triggerWorkflow, activeTrigger, account, newReference, simulateCollection, deliveriesOf, delivered, ledger, post, hmac, capturedDelivery, bankToken };
}
