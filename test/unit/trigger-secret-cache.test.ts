import { recentDeliveries } from '../../nodes/BaasTrigger/recentDeliveries';
import { RecentSecrets, recentSecrets, REREAD_INTERVAL_MS, SECRET_TTL_MS } from '../../nodes/BaasTrigger/secretCache';
import { signatureOf, webhookTrigger } from './support/webhookTrigger';

/**
 * The trigger reads the credential's webhook secret once per SECRET_TTL_MS, not once per delivery (n8n's
 * getCredentials costs a database read, a decryption and an expression isolate); a delivery the remembered
 * secret does not accept is checked again against the credential as it is now, at most once per
 * REREAD_INTERVAL_MS; a header that cannot hold a signature reads nothing.
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
		deliver(secret: string, header?: string) {
			const rawBody = Buffer.from(JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { reference_number: `${credentialId}-${n++}` } }));
			return webhook.deliver({ rawBody, signature: header ?? signatureOf(rawBody, secret) });
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

test('a new secret in the credential is accepted within REREAD_INTERVAL_MS, and from then on the old one is refused', async () => {
	const t = trigger('cred-rotated');
	await t.deliver('first-secret');
	t.credential.webhookSecret = 'second-secret';
	// Read less than REREAD_INTERVAL_MS ago: refused against that read (the bank retries a 401).
	expect(await t.deliver('second-secret')).toEqual({ status: 401, emitted: 0 });
	expect(t.reads()).toBe(1);
	now += REREAD_INTERVAL_MS;
	expect(await t.deliver('second-secret')).toEqual({ status: 200, emitted: 1 });
	expect(t.reads()).toBe(2);
	expect(await t.deliver('first-secret')).toEqual({ status: 401, emitted: 0 });
	expect(await t.deliver('second-secret')).toEqual({ status: 200, emitted: 1 });
	expect(t.reads()).toBe(2);
});

test('a delivery after a quiet spell with a new secret is accepted at once', async () => {
	const t = trigger('cred-quiet');
	await t.deliver('first-secret');
	now += 5 * REREAD_INTERVAL_MS;
	t.credential.webhookSecret = 'second-secret';
	expect(await t.deliver('second-secret')).toEqual({ status: 200, emitted: 1 });
	expect(t.reads()).toBe(2);
});

test('refusals read the credential at most once per REREAD_INTERVAL_MS, each decided against a read less than that old', async () => {
	const t = trigger('cred-refusals');
	await t.deliver('first-secret');
	for (let i = 0; i < 3; i++) expect(await t.deliver('forged')).toEqual({ status: 401, emitted: 0 });
	expect(t.reads()).toBe(1);
	for (let second = 1; second <= 5; second++) {
		now += REREAD_INTERVAL_MS;
		for (let i = 0; i < 10; i++) expect(await t.deliver('forged')).toEqual({ status: 401, emitted: 0 });
		expect(t.reads()).toBe(1 + second);
	}
});

test('a missing or malformed signature header reads no credential', async () => {
	const t = trigger('cred-unusable');
	for (const header of ['', '   ', 'sha256=', 'sha256=abc', `sha1=${'a'.repeat(64)}`, 'a'.repeat(64), `sha256=${'g'.repeat(64)}`]) {
		expect(await t.deliver('first-secret', header)).toEqual({ status: 401, emitted: 0 });
	}
	expect(t.reads()).toBe(0);
});

test('RecentSecrets.read: concurrent reads of one scope share one; a failed read is not remembered', async () => {
	const secrets = new RecentSecrets();
	let reads = 0;
	let open!: (secret: string) => void;
	const read = async () => {
		reads++;
		return await new Promise<string>((resolve) => (open = resolve));
	};
	const waiting = Array.from({ length: 200 }, async () => await secrets.read('a', 1_000, read));
	open('s-a');
	expect(new Set(await Promise.all(waiting))).toEqual(new Set(['s-a']));
	expect(reads).toBe(1);
	expect(secrets.get('a', 1_000)).toBe('s-a');
	expect(secrets.readRecently('a', 1_000 + REREAD_INTERVAL_MS - 1)).toBe(true);
	expect(secrets.readRecently('a', 1_000 + REREAD_INTERVAL_MS)).toBe(false);
	await expect(secrets.read('b', 1_000, async () => await Promise.reject(new Error('database down')))).rejects.toThrow('database down');
	expect(secrets.readRecently('b', 1_000)).toBe(false);
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
