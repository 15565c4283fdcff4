import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verification of the bank's `X-Service-Signature` header (contract: "Webhook signature"): HMAC-SHA256 keyed
 * with the webhook secret over the exact bytes received, sent as `sha256=<lowercase hex>`.
 *
 * Pure: no I/O, no logging. The expected digest never leaves this module, so neither a response nor a log
 * line can show it.
 */
export type SignatureCheck = { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'mismatch' };

/** `sha256=` (any case) then exactly 64 hex digits (any case); surrounding whitespace is tolerated. */
const HEADER_PATTERN = /^sha256=([0-9a-f]{64})$/i;

/** Why a header cannot hold a valid signature whatever the secret ('missing', 'malformed'), or undefined when it can. */
export function unusableHeader(header: string | undefined): 'missing' | 'malformed' | undefined {
	if (header === undefined || header.trim() === '') return 'missing';
	return HEADER_PATTERN.test(header.trim()) ? undefined : 'malformed';
}

export function verifySignature(rawBody: Buffer, header: string | undefined, secret: string): SignatureCheck {
	const unusable = unusableHeader(header);
	if (unusable !== undefined) return { valid: false, reason: unusable };
	const match = HEADER_PATTERN.exec(header!.trim())!;
	const received = Buffer.from(match[1].toLowerCase(), 'hex');
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	// Both are 32 bytes once the pattern matched; the check stays so timingSafeEqual can never throw.
	if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
		return { valid: false, reason: 'mismatch' };
	}
	return { valid: true };
}
