/**
 * Records seen before their outcome was known (a transfer still `pending`), re-checked on later polls with
 * growing waits until they are successful or failed. Pure bookkeeping; status look-ups are in status.ts.
 */
export interface PendingRecord {
	/** created_at of the record (ms), for ordering what is emitted. */
	createdMs: number;
	/** n8n's clock (ms) when the trigger first saw it pending. */
	firstSeenMs: number;
	/** Status checks made so far. */
	checks: number;
	/** n8n's clock (ms) when it is due for its next check. */
	nextCheckMs: number;
}

export type PendingSet = Record<string, PendingRecord>;

/** The record after one more check that found it still pending: the wait grows with each check, then stays. */
export function reschedule(record: PendingRecord, nowMs: number, delaysMs: number[]): PendingRecord {
	const wait = delaysMs[Math.min(record.checks + 1, delaysMs.length - 1)] ?? 0;
	return { ...record, checks: record.checks + 1, nextCheckMs: nowMs + wait };
}

export function firstSeen(createdMs: number, nowMs: number, delaysMs: number[]): PendingRecord {
	return { createdMs, firstSeenMs: nowMs, checks: 0, nextCheckMs: nowMs + (delaysMs[0] ?? 0) };
}

/** References due for a check now, longest overdue first, at most `max`. */
export function dueReferences(pending: PendingSet, nowMs: number, max: number): string[] {
	return Object.entries(pending)
		.filter(([, record]) => record.nextCheckMs <= nowMs)
		.sort((a, b) => a[1].nextCheckMs - b[1].nextCheckMs)
		.slice(0, max)
		.map(([reference]) => reference);
}

/** Keeps at most `max` records (the newest first seen); returns the references given up. */
export function boundPending(pending: PendingSet, max: number): { kept: PendingSet; dropped: string[] } {
	const entries = Object.entries(pending).sort((a, b) => b[1].firstSeenMs - a[1].firstSeenMs);
	return {
		kept: Object.fromEntries(entries.slice(0, max)),
		dropped: entries.slice(max).map(([reference]) => reference),
	};
}

export function parsePending(value: unknown): PendingSet {
	if (typeof value !== 'object' || value === null) return {};
	const out: PendingSet = {};
	for (const [reference, record] of Object.entries(value as Record<string, Partial<PendingRecord>>)) {
		if (typeof record?.nextCheckMs === 'number' && typeof record.createdMs === 'number') {
			out[reference] = {
				createdMs: record.createdMs,
				firstSeenMs: record.firstSeenMs ?? record.createdMs,
				checks: record.checks ?? 0,
				nextCheckMs: record.nextCheckMs,
			};
		}
	}
	return out;
}
