import { recentDeliveries } from '../../nodes/BaasTrigger/dedup';
import { RecentSecrets, recentSecrets, SECRET_TTL_MS } from '../../nodes/BaasTrigger/secretCache';
import { signatureOf, webhookTrigger } from './support/webhookTrigger';

/**
 * The trigger reads the credential's webhook secret once per SECRET_TTL_MS, not once per delivery (n8n's
 * getCredentials costs a database read, a decryption and an expression isolate), and a delivery the remembered
 * secret does not accept is checked again against the credential as it is now.
 */
function trigger(credentialId: string) {
	const credential = { webhookSecret: 'first-secret' };
	let reads = 0;
	const webhook = webhookTrigger({
		workflowId: `wf-${credentialId}`,
		credentialId,
		credential: () => {
			reads++;
			return { ...credential };
		},
	});
	let n = 0;
	return {
		credential,
		reads: () => reads,
		/** One new event, signed with `secret`. */
		deliver(secret: string) {
			const rawBody = Buffer.from(JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { reference_number: `${credentialId}-${n++}` } }));
			return webhook.deliver({ rawBody, signature: signatureOf(rawBody, secret) });
		},
	};
}

let now = Date.UTC(2026, 10, 23, 10, 0, 0);
beforeEach(() => {
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	recentSecrets.forget();
	recentDeliveries.forget();
});
afterEach(() => jest.restoreAllMocks());

test('deliveries within the TTL read the credential once', async () => {
	const t = trigger('cred-once');
	for (let i = 0; i < 5; i++) expect(await t.deliver('first-secret')).toEqual({ status: 200, emitted: 1 });
	expect(t.reads()).toBe(1);
	now += SECRET_TTL_MS;
	expect(await t.deliver('first-secret')).toEqual({ status: 200, emitted: 1 });
	expect(t.reads()).toBe(2);
});

test('a new secret in the credential is accepted at once, and from then on the old one is refused', async () => {
	const t = trigger('cred-rotated');
	await t.deliver('first-secret');
	t.credential.webhookSecret = 'second-secret';
	expect(await t.deliver('second-secret')).toEqual({ status: 200, emitted: 1 });
	expect(t.reads()).toBe(2);
	expect(await t.deliver('first-secret')).toEqual({ status: 401, emitted: 0 });
	expect(await t.deliver('second-secret')).toEqual({ status: 200, emitted: 1 });
});

test('every refusal is decided on the credential as it is now', async () => {
	const t = trigger('cred-refusals');
	await t.deliver('first-secret');
	for (let i = 0; i < 3; i++) expect(await t.deliver('forged')).toEqual({ status: 401, emitted: 0 });
	expect(t.reads()).toBe(4);
});

test('a removed secret stops deliveries within the TTL (fail closed)', async () => {
	const t = trigger('cred-removed');
	await t.deliver('first-secret');
	t.credential.webhookSecret = '';
	now += SECRET_TTL_MS;
	expect(await t.deliver('first-secret')).toEqual({ status: 401, emitted: 0 });
	expect(await t.deliver('')).toEqual({ status: 401, emitted: 0 });
});

test('RecentSecrets: per scope, expires after the TTL and when the clock steps back', () => {
	const secrets = new RecentSecrets();
	secrets.set('a', 's-a', 1_000);
	expect(secrets.get('a', 1_000 + SECRET_TTL_MS - 1)).toBe('s-a');
	expect(secrets.get('b', 1_000)).toBeUndefined();
	expect(secrets.get('a', 1_000 + SECRET_TTL_MS)).toBeUndefined();
	expect(secrets.get('a', 999)).toBeUndefined();
	secrets.forget('a');
	expect(secrets.get('a', 1_000)).toBeUndefined();
});
