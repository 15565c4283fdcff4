/** The bank, the trigger workflows and the delivery helpers the BaaS Trigger engine tests share (trigger-*.test.ts). */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { waitFor } from '../../support/waitFor';
import { useBankFixture } from './bankFixture';
import { TriggerWorkflow, type TriggerWorkflowOptions } from './triggerWorkflow';

/** A delivery the bank really made (exact bytes and signature), for replaying and tampering. */
export interface CapturedDelivery {
	reference: string;
	body: string;
	signature: string;
}

export function newReference(): string {
	return `COL-${randomUUID().slice(0, 8)}`;
}

export async function post(url: string, body: string | Buffer, headers: Record<string, string>) {
	const answer = await fetch(url, { method: 'POST', body, headers });
	return { status: answer.status, text: await answer.text() };
}

export function hmac(body: string | Buffer, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Sends one delivery the way a bank with a short time-out does when n8n is slow to answer: the request is sent
 * whole, and the connection is closed once the trigger has let the delivery through but before n8n answered
 * (the workflow holds its answers: TriggerWorkflow.holdAnswers). Resolves once n8n's side has seen the hang-up.
 */
export async function hangUpBeforeAnswer(wf: TriggerWorkflow, body: string, headers: Record<string, string>) {
	const held = wf.answersHeld;
	const hungUp = wf.hungUp;
	const request = http.request(wf.productionUrl, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
	// The hang-up makes the request fail on this side; that is the point.
	request.on('error', () => {});
	request.end(body);
	await waitFor('the trigger to let the delivery through', () => wf.answersHeld > held);
	request.destroy();
	await waitFor("n8n's side to see the hang-up", () => wf.hungUp > hungUp);
}

/** Sends a captured delivery again, byte for byte, and waits until the workflow is idle. */
export async function replay(wf: TriggerWorkflow, captured: CapturedDelivery) {
	const answer = await post(wf.productionUrl, captured.body, {
		'content-type': 'application/json',
		'x-service-signature': captured.signature,
	});
	await wf.idle();
	return answer;
}

/**
 * The bank fixture of a trigger test file, with few, quick retries (a refused delivery is retried by the bank,
 * and the tests wait for its last attempt). n8n's log lines are collected in `logged` instead of printed; the
 * workflows started are closed after each test.
 */
export function useTriggerBank() {
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

	const secret = () => fx.bank.seed.webhookSecret;

	async function triggerWorkflow(parameters: object, options: Omit<TriggerWorkflowOptions, 'parameters'> = {}) {
		const wf = await TriggerWorkflow.start(fx.credentials, { parameters: { ...parameters }, ...options });
		open.push(wf);
		return wf;
	}

	async function activeTrigger(parameters: object = { events: ['COLLECTION_SUCCESS'] }, options: Omit<TriggerWorkflowOptions, 'parameters'> = {}) {
		const wf = await triggerWorkflow(parameters, options);
		await wf.activate();
		return wf;
	}

	function account(): string {
		return fx.bank.seed.accounts.find((a) => a.status === 'active')!.account_number;
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

	async function capturedDelivery(wf: TriggerWorkflow): Promise<CapturedDelivery> {
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

	return { fx, logged, secret, triggerWorkflow, activeTrigger, account, simulateCollection, deliveriesOf, delivered, ledger, capturedDelivery, bankToken };
}
