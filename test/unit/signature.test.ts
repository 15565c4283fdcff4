import { createHmac } from 'node:crypto';

import { verifySignature } from '../../nodes/BaasTrigger/signature';

const SECRET = 'whsec_test_3f9a1c';

/** What the bank sends: `sha256=` + lowercase hex HMAC-SHA256 of the exact bytes (contract, Webhook signature). */
function signBytes(bytes: Buffer, secret = SECRET): string {
	return `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`;
}

const body = Buffer.from(
	JSON.stringify({
		event: 'COLLECTION_SUCCESS',
		data: { reference_number: 'COL-1', amount: '1500.00' },
		created_at: '2026-11-23T10:00:00.000Z',
	}),
	'utf8',
);

describe('verifySignature', () => {
	test('accepts the signature the bank computes over the body', () => {
		expect(verifySignature(body, signBytes(body), SECRET)).toEqual({ valid: true });
	});

	test('rejects a signature made with another secret', () => {
		expect(verifySignature(body, signBytes(body, 'another-secret'), SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('rejects a body changed after signing (one byte)', () => {
		const header = signBytes(body);
		const tampered = Buffer.from(body.toString('utf8').replace('1500.00', '9500.00'), 'utf8');
		expect(tampered.length).toBe(body.length);
		expect(verifySignature(tampered, header, SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test.each([
		['absent', undefined],
		['empty', ''],
		['blank', '   '],
	])('reports a %s header as missing', (_label, header) => {
		expect(verifySignature(body, header, SECRET)).toEqual({ valid: false, reason: 'missing' });
	});

	test('rejects a truncated signature before comparing', () => {
		const header = signBytes(body);
		expect(verifySignature(body, header.slice(0, -2), SECRET)).toEqual({ valid: false, reason: 'malformed' });
		expect(verifySignature(body, 'sha256=', SECRET)).toEqual({ valid: false, reason: 'malformed' });
	});

	test.each([
		['no prefix', (h: string) => h.slice('sha256='.length)],
		['another algorithm', (h: string) => h.replace('sha256=', 'sha1=')],
		['non-hex digits', (h: string) => `${h.slice(0, -1)}z`],
		['one digit too many', (h: string) => `${h}0`],
		['two signatures', (h: string) => `${h},${h}`],
	])('rejects a malformed header: %s', (_label, change) => {
		expect(verifySignature(body, change(signBytes(body)), SECRET)).toEqual({ valid: false, reason: 'malformed' });
	});

	test('accepts uppercase hex and an uppercase SHA256= prefix', () => {
		const digest = signBytes(body).slice('sha256='.length);
		expect(verifySignature(body, `sha256=${digest.toUpperCase()}`, SECRET)).toEqual({ valid: true });
		expect(verifySignature(body, `SHA256=${digest}`, SECRET)).toEqual({ valid: true });
		expect(verifySignature(body, `Sha256=${digest.toUpperCase()}`, SECRET)).toEqual({ valid: true });
	});

	test('accepts non-canonical JSON (extra spaces, unusual key order) signed as sent', () => {
		const sent = Buffer.from('{ "data" : {"amount":"20.00",   "reference_number":"R-9"},\n "event":"TRANSFER_SUCCESS" }', 'utf8');
		expect(verifySignature(sent, signBytes(sent), SECRET)).toEqual({ valid: true });
	});

	test('accepts non-ASCII text signed over its UTF-8 bytes', () => {
		const sent = Buffer.from(JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { narration: 'Ọjà ₦5,000 — café 🎉' } }), 'utf8');
		expect(sent.length).toBeGreaterThan(sent.toString('utf8').length);
		expect(verifySignature(sent, signBytes(sent), SECRET)).toEqual({ valid: true });
		// The same text signed as Latin-1 bytes is a different message.
		const latin1 = Buffer.from(sent.toString('utf8'), 'latin1');
		expect(verifySignature(sent, signBytes(latin1), SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('accepts a large body (about 1 MB)', () => {
		const records = Array.from({ length: 9000 }, (_, i) => ({ reference_number: `REF-${i}`, narration: 'x'.repeat(90) }));
		const sent = Buffer.from(JSON.stringify({ event: 'COLLECTION_SUCCESS', data: { records } }), 'utf8');
		expect(sent.length).toBeGreaterThan(1_000_000);
		expect(verifySignature(sent, signBytes(sent), SECRET)).toEqual({ valid: true });
		const changed = Buffer.from(sent);
		changed[changed.length - 10] ^= 1;
		expect(verifySignature(changed, signBytes(sent), SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('rejects the body once a JSON parser has re-serialised it', () => {
		const sent = Buffer.from('{"event": "COLLECTION_SUCCESS", "data": {"narration": "caf\\u00e9 \\/ ok"}}', 'utf8');
		const header = signBytes(sent);
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(sent.toString('utf8'))), 'utf8');
		expect(reserialised.equals(sent)).toBe(false);
		expect(JSON.parse(reserialised.toString('utf8'))).toEqual(JSON.parse(sent.toString('utf8')));
		expect(verifySignature(sent, header, SECRET)).toEqual({ valid: true });
		expect(verifySignature(reserialised, header, SECRET)).toEqual({ valid: false, reason: 'mismatch' });
	});

	test('never returns the expected digest', () => {
		const expected = signBytes(body).slice('sha256='.length);
		const results = [
			verifySignature(body, signBytes(body, 'wrong'), SECRET),
			verifySignature(body, 'sha256=abc', SECRET),
			verifySignature(body, undefined, SECRET),
		];
		for (const result of results) {
			expect(JSON.stringify(result)).not.toContain(expected);
			expect(JSON.stringify(result)).not.toContain(SECRET);
		}
	});
});
