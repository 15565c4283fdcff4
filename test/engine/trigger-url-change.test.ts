/**
 * BaaS Trigger when n8n's public URL changes (registration.ts). At start-up n8n 1.123 and 2.41 update the workflow's
 * stored webhook row, then run the node's checkExists and, when it answers false, create (WebhookService
 * createWebhookIfNotExists), in a HookContext whose webhook URL is built from the base URL n8n has now. These
 * tests start "n8n" again that way, through n8n-core's real HookContext, with another n8n's base URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext } from 'n8n-core';
import type { IDataObject, WorkflowActivateMode } from 'n8n-workflow';

import type { TriggerWorkflow } from './harness/triggerWorkflow';
import { serverAdditionalData, trigger, TRIGGER_NAME, triggerWorkflow as workflowOf, webhookData } from './harness/triggerWorkflowParts';
import { newReference, useTriggerBank } from './harness/triggerBank';

const { fx, logged, activeTrigger, simulateCollection, ledger } = useTriggerBank();

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

/**
 * n8n starting with the workflow active and its public URL at `base`: checkExists, create when it answers false,
 * then the static data saved when it changed (ActiveWorkflowManager.add / addWebhooks).
 */
async function startN8nAt(wf: TriggerWorkflow, base: string, activation: WorkflowActivateMode = 'init') {
	const spec = { workflowId: wf.workflowId, webhookId: wf.webhookId, base, parameters: wf.parameters, credentialId: 'api-1', active: true };
	const workflow = workflowOf(spec, clone(wf.staticData));
	const additionalData = serverAdditionalData(fx.credentials, spec);
	const context = new HookContext(workflow, workflow.getNode(TRIGGER_NAME)!, additionalData, 'trigger', activation, webhookData(spec, additionalData, false));
	const methods = trigger.webhookMethods.default;
	if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	if ((workflow.staticData as IDataObject).__dataChanged === true) wf.staticData = clone(workflow.staticData as IDataObject);
}

const stored = (wf: TriggerWorkflow) => wf.staticData[`node:${TRIGGER_NAME}`] as IDataObject;

describe('n8n starts with another public URL', () => {
	test('the trigger registers the new URL at start-up, says so in the log, and the next collection goes there once', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] });
		const moved = await otherN8n(wf.webhookId);
		try {
			const before = fx.count('/customer/api/create_webhook');
			await startN8nAt(wf, moved.base);
			expect(fx.count('/customer/api/create_webhook') - before).toBe(1);
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

	test('starting again at the same URL asks the bank nothing', async () => {
		const wf = await activeTrigger();
		const before = fx.count('/customer/api/create_webhook');
		await startN8nAt(wf, new URL(wf.productionUrl).origin);
		await startN8nAt(wf, new URL(wf.productionUrl).origin, 'update');
		expect(fx.count('/customer/api/create_webhook')).toBe(before);
	});

	test('a bank that cannot take the new URL at start-up fails the activation (n8n retries it) and keeps the stored URL', async () => {
		const wf = await activeTrigger();
		const moved = await otherN8n(wf.webhookId);
		try {
			const was = clone(stored(wf));
			fx.bank.addFault({ match: 'create_webhook', errorCode: '80' });
			await expect(startN8nAt(wf, moved.base)).rejects.toMatchObject({ name: 'NodeApiError' });
			expect(stored(wf)).toEqual(was);
			fx.bank.clearFaults();
			await startN8nAt(wf, moved.base);
			expect(stored(wf).webhookUrl).toBe(moved.url);
		} finally {
			fx.bank.clearFaults();
			await moved.close();
		}
	});
});
