/**
 * Forged deliveries cost n8n no credential reads beyond one per REREAD_INTERVAL_MS (secretCache.ts): served
 * through n8n-core's real WebhookContext, where each read is n8n's getCredentials (a database read and a
 * decryption in n8n's server; counted here by the credentials helper).
 */
import { recentSecrets, REREAD_INTERVAL_MS } from '../../nodes/BaasTrigger/secretCache';
import { hmac, newReference, post, useTriggerBank } from './harness/triggerBank';

const { fx, secret, activeTrigger } = useTriggerBank();

function event(reference = newReference()): string {
	return JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { reference_number: reference, amount: '1500.00' }, created_at: new Date().toISOString() });
}

const json = { 'content-type': 'application/json' };

/** Credential reads while `run` runs, and how many REREAD_INTERVAL_MS it spanned (started ones count whole). */
async function readsDuring(run: () => Promise<void>): Promise<{ reads: number; intervals: number }> {
	const before = fx.credentials.decryptions;
	const started = Date.now();
	await run();
	return { reads: fx.credentials.decryptions - before, intervals: Math.floor((Date.now() - started) / REREAD_INTERVAL_MS) + 1 };
}

test('50 deliveries without a signature header and 50 with a malformed one read the credential 0 times', async () => {
	const wf = await activeTrigger();
	const malformed = ['sha256=', 'sha256=abc', `sha1=${'a'.repeat(64)}`, 'a'.repeat(64), `sha256=${'z'.repeat(64)}`];
	const { reads } = await readsDuring(async () => {
		for (let i = 0; i < 50; i++) expect((await post(wf.productionUrl, event(), json)).status).toBe(401);
		for (let i = 0; i < 50; i++) {
			expect((await post(wf.productionUrl, event(), { ...json, 'x-service-signature': malformed[i % malformed.length] })).status).toBe(401);
		}
	});
	await wf.idle();
	expect(reads).toBe(0);
	expect(wf.executions).toHaveLength(0);
});

test('200 deliveries signed with a wrong key at once share one credential read; then a valid event runs once', async () => {
	const wf = await activeTrigger();
	// As after a quiet spell: nothing read recently.
	recentSecrets.forget();
	const { reads, intervals } = await readsDuring(async () => {
		const answers = await Promise.all(
			Array.from({ length: 200 }, async () => {
				const body = event();
				return (await post(wf.productionUrl, body, { ...json, 'x-service-signature': `sha256=${hmac(body, 'guessed-secret')}` })).status;
			}),
		);
		expect(new Set(answers)).toEqual(new Set([401]));
	});
	expect(reads).toBeGreaterThanOrEqual(1);
	expect(reads).toBeLessThanOrEqual(intervals);
	const body = event();
	for (let copy = 0; copy < 2; copy++) expect((await post(wf.productionUrl, body, { ...json, 'x-service-signature': `sha256=${hmac(body, secret())}` })).status).toBe(200);
	await wf.idle();
	expect(wf.executions).toHaveLength(1);
});
