/** BaaS Trigger signature check (signature.ts): a delivery without a valid X-Service-Signature is refused with 401 and starts nothing. */
import type { TriggerWorkflow } from './harness/triggerWorkflow';
import { type CapturedDelivery, hmac, newReference, post, replay, useTriggerBank } from './harness/triggerBank';

const { fx, logged, secret, activeTrigger, simulateCollection, delivered, capturedDelivery } = useTriggerBank();

describe('deliveries', () => {
	describe('refused with 401 and no execution', () => {
		let wf: TriggerWorkflow;
		let captured: CapturedDelivery;
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
			const answer = await replay(wf, captured);
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
			const expectedDigest = hmac(tampered, secret());
			const everything = [...answers.map((a) => a.text), ...logged].join('\n');
			expect(logged.some((line) => line.includes('refused a delivery'))).toBe(true);
			expect(everything).not.toContain(secret());
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
});
