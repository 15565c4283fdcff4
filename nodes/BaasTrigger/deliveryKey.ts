import { createHash } from 'node:crypto';

/**
 * The trigger remembers which events it let through recently, so a second delivery of one event (bank retry,
 * network hiccup, replay of captured bytes) starts nothing. Two memories hold the keys made here, with the same
 * window: seenStore.ts in the workflow's static data, recentDeliveries.ts in this n8n process.
 */

/** 11 base64url characters = 66 bits of SHA-256: a false match is below 1e-12 even at 5,000 keys. */
export const SHORT_KEY_LENGTH = 11;

/**
 * The identity of an event, as a short hash: its kind and the reference of its record; when the record has
 * none, its kind and the signed bytes. Never a header: X-Service-Delivery-Id is not signed, so a replay could
 * change it at will.
 */
export function deliveryKey(kind: string, data: unknown, signedBody: Buffer): string {
	const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
	const reference = record.reference_number ?? record.reference;
	const hash = createHash('sha256');
	if ((typeof reference === 'string' && reference !== '') || typeof reference === 'number') {
		hash.update(`${kind}\u0000ref\u0000${String(reference)}`);
	} else {
		hash.update(`${kind}\u0000body\u0000`).update(signedBody);
	}
	return hash.digest('base64url').slice(0, SHORT_KEY_LENGTH);
}
