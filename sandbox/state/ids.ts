/**
 * Ids and references made while the bank runs. They are time-ordered and random rather than drawn from the seed:
 * `npm run dev` restores the registrations of earlier runs and n8n remembers what it saw, so a restarted bank must
 * never hand out an id or reference of an earlier run again.
 */
import { randomBytes, randomInt } from 'node:crypto';

/** UUID version 7 layout: 48 bits of milliseconds, then 74 random bits. */
export function runtimeId(nowMs = Date.now()): string {
	const bytes = randomBytes(16);
	bytes.writeUIntBE(nowMs, 0, 6);
	bytes[6] = 0x70 | (bytes[6] & 0x0f);
	bytes[8] = 0x80 | (bytes[8] & 0x3f);
	const hex = bytes.toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** e.g. COL-20261125-48213907: the day keeps references readable, the 8 random digits keep them apart. */
export function runtimeReference(prefix: string, nowMs: number): string {
	const day = new Date(nowMs).toISOString().slice(0, 10).replace(/-/g, '');
	return `${prefix}-${day}-${String(randomInt(100_000_000)).padStart(8, '0')}`;
}
