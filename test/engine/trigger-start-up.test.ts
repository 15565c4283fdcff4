/**
 * BaaS Trigger when n8n starts again (registration.ts). At start-up n8n 1.123 and 2.41 update the workflow's stored
 * webhook row, run the node's checkExists and, when it answers false, create (WebhookService
 * createWebhookIfNotExists), in a HookContext whose webhook URL is built from the base URL n8n has now; they also
 * start the node's trigger function, in a TriggerContext of the same Workflow (one in-memory static data). These
 * tests start "n8n" again that way, through n8n-core's real contexts: at another address, at the same one after the
 * bank disabled the URL, and while the bank cannot take a registration.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, TriggerContext } from 'n8n-core';
import type { IDataObject, ITriggerResponse, WorkflowActivateMode } from 'n8n-workflow';

import { DEAD_DELIVERIES_BEFORE_DISABLE } from '../../sandbox/runtime/webhooks';
import { waitFor } from '../support/waitFor';
import type { TriggerWorkflow } from './harness/triggerWorkflow';
import { serverAdditionalData, trigger, TRIGGER_NAME, triggerWorkflow as workflowOf, webhookData } from './harness/triggerWorkflowParts';
import { newReference, useTriggerBank } from './harness/triggerBank';

const { fx, logged, activeTrigger, triggerWorkflow, simulateCollection, delivered, deliveriesOf, ledger } = useTriggerBank();

/** An n8n at another address: counts the deliveries reaching its production URL for the trigger. */
async function otherN8n(webhookId: string) {
	const hits: string[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			if (req.url === `/webhook/${webhookId}/webhook`) hits.push(body);
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"Workflow was started"}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		base,
		url: `${base}/webhook/${webhookId}/webhook`,
		hits,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The trigger functions started by startN8nAt, stopped after each test as n8n stops them at shutdown. */
const running: ITriggerResponse[] = [];
afterEach(async () => {
	for (const started of running.splice(0)) await started.closeFunction?.();
});

/**
 * n8n starting with the workflow active and its public URL at `base`: checkExists, create when it answers false,
 * the trigger function started on the same Workflow, then the static data saved when it changed
 * (ActiveWorkflowManager.add: addWebhooks, addTriggers).
 */
async function startN8nAt(wf: TriggerWorkflow, base: string, activation: WorkflowActivateMode = 'init') {
	const spec = { workflowId: wf.workflowId, webhookId: wf.webhookId, base, parameters: wf.parameters, credentialId: 'api-1', active: true };
	const workflow = workflowOf(spec, clone(wf.staticData));
	const additionalData = serverAdditionalData(fx.credentials, spec);
	const node = workflow.getNode(TRIGGER_NAME)!;
	const context = new HookContext(workflow, node, additionalData, 'trigger', activation, webhookData(spec, additionalData, false));
	const methods = trigger.webhookMethods.default;
	if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	running.push(await trigger.trigger.call(new TriggerContext(workflow, node, additionalData, 'trigger', activation)));
	if ((workflow.staticData as IDataObject).__dataChanged === true) wf.staticData = clone(workflow.staticData as IDataObject);
}

const stored = (wf: TriggerWorkflow) => wf.staticData[`node:${TRIGGER_NAME}`] as IDataObject;
const registrations = () => fx.count('/customer/api/create_webhook');
const registrationAt = (url: string) => fx.bank.bank.webhooks.find((w) => w.url === url);
const lines = (level: string, text: string) => logged.filter((line) => line.startsWith(`${level}:`) && line.includes(text));

/** n8n is down (its URL answers 404, as n8n does for a webhook it does not know) for as many events as make the bank disable the URL. */
async function bankDisablesWhileDown(wf: TriggerWorkflow) {
	wf.active = false;
	for (let i = 0; i < DEAD_DELIVERIES_BEFORE_DISABLE; i++) {
		const missed = newReference();
		await simulateCollection(missed);
		await delivered(wf, missed, 2);
	}
	await waitFor('the bank to disable the URL', () => registrationAt(wf.productionUrl)?.disabledAtMs !== undefined);
}

/** The next collection reaches the workflow exactly once. */
async function nextCollectionRunsOnce(wf: TriggerWorkflow) {
	const reference = newReference();
	const executionsBefore = wf.executions.length;
	await simulateCollection(reference);
	const attempts = await delivered(wf, reference);
	expect(attempts.map((d) => d.status)).toEqual([200]);
	expect(deliveriesOf(reference)).toHaveLength(1);
	expect(wf.executions.slice(executionsBefore).map((e) => (e.json[0].data as IDataObject).reference_number)).toEqual([reference]);
}

describe('n8n starts again', () => {
	test('with another public URL: the trigger registers the new URL at start-up, says so in the log, and the next collection goes there once', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] });
		const moved = await otherN8n(wf.webhookId);
		try {
			const before = registrations();
			await startN8nAt(wf, moved.base);
			expect(registrations() - before).toBe(1);
			expect(stored(wf)).toMatchObject({ webhookUrl: moved.url, events: ['COLLECTION_SUCCESS'] });
			const registered = (await ledger()).webhooks.find((w) => w.url === moved.url);
			expect(registered?.events).toEqual(['COLLECTION_SUCCESS']);
			expect(logged.join('\n')).toContain(`n8n's webhook URL changed from ${wf.productionUrl} to ${moved.url}`);

			const reference = newReference();
			await simulateCollection(reference);
			for (let i = 0; i < 100 && moved.hits.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
			expect(moved.hits).toHaveLength(1);
			expect(moved.hits[0]).toContain(reference);
		} finally {
			await moved.close();
		}
	});

	test('at the same URL: one create_webhook per start and per activation, said in the log at info level; the bank keeps one registration', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS', 'TRANSFER_FAILED'] });
		const before = registrations();
		logged.length = 0;
		await startN8nAt(wf, new URL(wf.productionUrl).origin);
		await startN8nAt(wf, new URL(wf.productionUrl).origin, 'update');
		expect(registrations() - before).toBe(2);
		expect(fx.bank.bank.webhooks.filter((w) => w.url === wf.productionUrl)).toHaveLength(1);
		const said = lines('info', wf.productionUrl);
		expect(said).toHaveLength(2);
		for (const line of said) expect(line).toContain('COLLECTION_SUCCESS, TRANSFER_FAILED');
		expect(lines('warn', wf.productionUrl)).toEqual([]);
	});

	test('at the same URL after the bank disabled it (3 events answered 404 while n8n was down): registered again, the next collection runs once', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] });
		await bankDisablesWhileDown(wf);
		const before = registrations();
		logged.length = 0;
		await startN8nAt(wf, new URL(wf.productionUrl).origin);
		wf.active = true;
		expect(registrations() - before).toBe(1);
		expect(registrationAt(wf.productionUrl)?.disabledAtMs).toBeUndefined();
		expect(lines('info', wf.productionUrl).join('\n')).toContain('COLLECTION_SUCCESS');
		await nextCollectionRunsOnce(wf);
	});

	test('while the bank cannot take the registration: n8n starts with the workflow active, a warning says so, and the trigger registers by itself once the bank is back', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] });
		await bankDisablesWhileDown(wf);
		fx.bank.addFault({ match: 'create_webhook', errorCode: '80' });
		const before = registrations();
		logged.length = 0;
		await startN8nAt(wf, new URL(wf.productionUrl).origin);
		wf.active = true;
		const warning = lines('warn', wf.productionUrl).join('\n');
		expect(warning).toContain('could not register');
		expect(warning).toContain('tries again');
		// Still down for the first retry; then the bank is back.
		await waitFor('a second attempt', () => registrations() - before >= 2, { timeoutMs: 20_000 });
		expect(registrationAt(wf.productionUrl)?.disabledAtMs).toBeDefined();
		fx.bank.clearFaults();
		const said = await waitFor('the registration once the bank is back', () => lines('info', wf.productionUrl)[0], { timeoutMs: 20_000 });
		expect(said).toContain('COLLECTION_SUCCESS');
		expect(registrationAt(wf.productionUrl)?.disabledAtMs).toBeUndefined();
		await nextCollectionRunsOnce(wf);
	});

	test('a user activating while the bank cannot take the registration gets its error at once; nothing is stored', async () => {
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] });
		fx.bank.addFault({ match: 'create_webhook', errorCode: '80' });
		await expect(wf.activate()).rejects.toMatchObject({ name: 'NodeApiError' });
		expect(wf.staticData).toEqual({});
	});
});
