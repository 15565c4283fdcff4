/**
 * Records seen before their outcome was known (a transfer still `pending`, or one whose status could not be
 * read), re-checked on later polls with growing waits until they are successful or failed. Pure bookkeeping;
 * status look-ups are in status.ts. A Map, so no reference (`constructor`, `__proto__`) is special.
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

export type PendingSet = Map<string, PendingRecord>;

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
	return [...pending]
		.filter(([, record]) => record.nextCheckMs <= nowMs)
		.sort((a, b) => a[1].nextCheckMs - b[1].nextCheckMs)
		.slice(0, Math.max(0, max))
		.map(([reference]) => reference);
}

/** Keeps at most `max` records (the newest first seen); returns the references given up. */
export function boundPending(pending: PendingSet, max: number): { kept: PendingSet; dropped: string[] } {
	const entries = [...pending].sort((a, b) => b[1].firstSeenMs - a[1].firstSeenMs);
	return { kept: new Map(entries.slice(0, max)), dropped: entries.slice(max).map(([reference]) => reference) };
}

export function pendingToJson(pending: PendingSet): Array<[string, PendingRecord]> {
	return [...pending];
}

export function parsePending(value: unknown): PendingSet {
	const out: PendingSet = new Map();
	if (typeof value !== 'object' || value === null) return out;
	const pairs = Array.isArray(value) ? (value as unknown[]) : Object.entries(value as Record<string, unknown>);
	for (const pair of pairs) {
		if (!Array.isArray(pair) || typeof pair[0] !== 'string') continue;
		const record = pair[1] as Partial<PendingRecord> | null;
		if (typeof record?.nextCheckMs === 'number' && typeof record.createdMs === 'number') {
			out.set(pair[0], {
				createdMs: record.createdMs,
				firstSeenMs: record.firstSeenMs ?? record.createdMs,
				checks: record.checks ?? 0,
				nextCheckMs: record.nextCheckMs,
			});
		}
	}
	return out;
}
