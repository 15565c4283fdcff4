/** BaaS Trigger activation (registration.ts): registering the URL and events with the bank, "Listen for test event", deactivation. */
import { recentDeliveries } from '../../nodes/BaasTrigger/recentDeliveries';
import { newReference, replay, useTriggerBank } from './harness/triggerBank';

const { fx, logged, triggerWorkflow, activeTrigger, simulateCollection, delivered, ledger, capturedDelivery } = useTriggerBank();

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

	test('activating again registers again (the bank may have disabled the URL; it keeps one registration of it); changed events are registered', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'] });
		const before = fx.count('/customer/api/create_webhook');
		await wf.activate();
		expect(fx.count('/customer/api/create_webhook')).toBe(before + 1);
		expect(fx.bank.bank.webhooks.filter((w) => w.url === wf.productionUrl)).toHaveLength(1);

		wf.parameters = { events: ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS'] };
		await wf.activate();
		expect(fx.count('/customer/api/create_webhook')).toBe(before + 2);
		const registered = (await ledger()).webhooks.find((w) => w.url === wf.productionUrl);
		expect([...registered!.events].sort()).toEqual(['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS']);
	});

	test('a Duplicate Window that is not a number is refused at activation, naming the field; nothing is registered', async () => {
		for (const window of ['={{ "60 minutes" }}', '={{ 0 }}', '={{ null }}']) {
			const wf = await triggerWorkflow({ events: ['COLLECTION_SUCCESS'], options: { duplicateWindowMinutes: window } });
			const before = fx.count('/customer/api/create_webhook');
			await expect(wf.activate()).rejects.toMatchObject({
				message: expect.stringMatching(/^Duplicate Window \(Minutes\) must be a number of minutes, at least 1 \(got /),
				description: expect.stringContaining('enter a number such as 60'),
			});
			await expect(wf.listenForTest()).rejects.toThrow('Duplicate Window (Minutes)');
			expect(fx.count('/customer/api/create_webhook')).toBe(before);
		}
		// Numbers from expressions are fine, and with duplicates kept the window is not looked at.
		await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { duplicateWindowMinutes: '={{ 24 * 60 }}' } });
		await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { duplicateWindowMinutes: '={{ "90" }}' } });
		await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { dropDuplicates: false, duplicateWindowMinutes: '={{ "x" }}' } });
	});

	test('a Duplicate Window that stops being a number after activation never turns dropping off: the default applies, with a warning', async () => {
		const wf = await activeTrigger({ events: ['COLLECTION_SUCCESS'], options: { duplicateWindowMinutes: 30 } });
		wf.parameters = { events: ['COLLECTION_SUCCESS'], options: { duplicateWindowMinutes: '={{ "60 minutes" }}' } };
		const captured = await capturedDelivery(wf);
		expect((await replay(wf, captured)).status).toBe(200);
		expect(wf.executions).toHaveLength(1);
		expect(logged.some((line) => line.includes('Duplicate Window (Minutes) must be a number') && line.includes('the default of 60 minutes applies'))).toBe(true);
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

		// Activating again registers again.
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
		const answer = await replay(wf, captured);
		expect(answer.status).toBe(200);
		expect(wf.executions).toHaveLength(1);
	});
});
