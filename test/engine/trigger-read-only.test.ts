/**
 * The BaaS Trigger with a read-only BaaS API credential (registration.ts, nodes/common/actions/readOnly.ts): its
 * activation registers a webhook with the bank (create_webhook), a write, so it fails before that request, saying
 * which credential and what to use instead; at n8n's start-up too. A credential without the field activates as before.
 */
import { HookContext } from 'n8n-core';
import type { WorkflowActivateMode } from 'n8n-workflow';

import { serverAdditionalData, trigger, TRIGGER_NAME, triggerWorkflow as workflowOf, webhookData } from './harness/triggerWorkflowParts';
import { useTriggerBank } from './harness/triggerBank';

const { fx, triggerWorkflow, ledger } = useTriggerBank();

const REFUSAL =
	'The BaaS Trigger cannot be activated with the BaaS API credential "BaaS API": it is read-only, and activating registers this workflow\'s webhook URL with the bank (a change at the bank). Nothing was sent to the bank. Use the BaaS (Polling) Trigger, which only reads, or select a BaaS API credential that may write (Read Only off).';

beforeAll(() => {
	fx.credentials.add('api-ro', 'baasApi', { ...fx.credentials.stored('api-1')!, readOnly: true });
	fx.credentials.add('api-ro-no-secret', 'baasApi', { ...fx.credentials.stored('api-1')!, readOnly: true, webhookSecret: '' });
});

/** Requests the bank received during `action` (any path); `action`'s own failure fails the test. */
async function requestsDuring(action: () => Promise<unknown>): Promise<string[]> {
	const since = fx.bank.requests().length;
	await action();
	return fx.bank.requests().slice(since).map((request) => request.path);
}

describe('BaaS Trigger with a read-only credential', () => {
	test('activation fails with what to do; no request reaches the bank, nothing is registered or stored', async () => {
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-ro' });
		await expect(wf.activate()).rejects.toMatchObject({ name: 'NodeOperationError', message: REFUSAL });
		expect(await requestsDuring(() => wf.activate().catch(() => undefined))).toEqual([]);
		expect((await ledger()).webhooks.some((w) => w.url === wf.productionUrl)).toBe(false);
		expect(wf.staticData).toEqual({});
	});

	test('"Listen for test event" fails the same way; the test URL is not registered', async () => {
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-ro' });
		await expect(wf.listenForTest()).rejects.toMatchObject({ message: REFUSAL });
		expect(await requestsDuring(() => wf.listenForTest().catch(() => undefined))).toEqual([]);
		expect((await ledger()).webhooks.some((w) => w.url === wf.testUrl)).toBe(false);
	});

	test('read-only comes first when the Webhook Secret is missing too (a secret alone would not make it work)', async () => {
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-ro-no-secret' });
		await expect(wf.activate()).rejects.toMatchObject({ message: REFUSAL });
	});

	test.each(['init', 'update'] as const)('at n8n\'s start-up (%s) it fails too, rather than retrying a registration that cannot be made', async (activation: WorkflowActivateMode) => {
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-ro' });
		const spec = { workflowId: wf.workflowId, webhookId: wf.webhookId, base: new URL(wf.productionUrl).origin, parameters: wf.parameters, credentialId: 'api-ro', active: true };
		const workflow = workflowOf(spec, {});
		const additionalData = serverAdditionalData(fx.credentials, spec);
		const context = new HookContext(workflow, workflow.getNode(TRIGGER_NAME)!, additionalData, 'trigger', activation, webhookData(spec, additionalData, false));
		const methods = trigger.webhookMethods.default;
		const requests = await requestsDuring(async () => {
			await expect(methods.checkExists.call(context)).rejects.toMatchObject({ message: REFUSAL });
			await expect(methods.create.call(context)).rejects.toMatchObject({ message: REFUSAL });
		});
		expect(requests).toEqual([]);
	});

	test('the same trigger with a credential saved without the field activates and registers, as before', async () => {
		const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-ro' });
		await expect(wf.activate()).rejects.toMatchObject({ message: REFUSAL });
		expect(fx.credentials.stored('api-1')).not.toHaveProperty('readOnly');
		const writable = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'] }, { credentialId: 'api-1' });
		const before = fx.count('/customer/api/create_webhook');
		await writable.activate();
		expect(fx.count('/customer/api/create_webhook') - before).toBe(1);
		expect((await ledger()).webhooks.some((w) => w.url === writable.productionUrl)).toBe(true);
	});
});
