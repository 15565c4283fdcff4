/**
 * Where a stream of the Poll Trigger stands, kept in the node's static data. Pure: no requests.
 *
 * The bank's lists are newest first and their date filters are day-grained, so the cursor is the bank's own
 * created_at: a poll reads back from the newest record until it passes `floorMs`, and the references seen at or
 * after the floor say which of those records were already handled. Records that share one timestamp are
 * therefore neither skipped nor repeated. The floor never rises above n8n's clock less the overlap, so a record
 * the bank stamps in the future cannot hide the ones after it; its reference stays remembered until the floor
 * passes it, so it is not emitted twice.
 */
export interface StreamCursor {
	/** Records created before this (epoch ms, bank clock) are behind the trigger; null: every record counts. */
	floorMs: number | null;
	/** Newest created_at handled so far, or null before the first record. */
	newestMs: number | null;
	/** reference → created_at (ms) of each record handled at or after floorMs (a Map: no reference is special). */
	seen: Map<string, number>;
}

export interface CursorLimits {
	overlapMs: number;
	maxSeen: number;
	/** A backlog is still being read: records not yet read lie above the floor, so it does not follow the newest. */
	reading?: boolean;
}

export interface Stamp {
	reference: string;
	createdMs: number;
}

export function emptyCursor(floorMs: number | null): StreamCursor {
	return { floorMs, newestMs: null, seen: new Map() };
}

/** 'behind': older than the floor (handled before, or before the trigger's start); 'seen': handled; else 'new'. */
export function placeOf(cursor: StreamCursor, stamp: Stamp): 'behind' | 'seen' | 'new' {
	if (cursor.floorMs !== null && stamp.createdMs < cursor.floorMs) return 'behind';
	return cursor.seen.has(stamp.reference) ? 'seen' : 'new';
}

/** Notes one handled record (in place). */
export function markHandled(cursor: StreamCursor, stamp: Stamp): void {
	cursor.seen.set(stamp.reference, stamp.createdMs);
	if (cursor.newestMs === null || stamp.createdMs > cursor.newestMs) cursor.newestMs = stamp.createdMs;
}

/**
 * The cursor at the end of a poll: the floor moves to `overlapMs` behind the newest record handled, or behind
 * n8n's clock `nowMs` when that is earlier, and never back (nor while a backlog is being read); references older than the floor are forgotten. When
 * more than `maxSeen` remain, whole instants are forgotten oldest first and the floor rises to the oldest kept
 * instant, so memory stays bounded without ever splitting a burst that shares one timestamp.
 */
export function settle(cursor: StreamCursor, nowMs: number, limits: CursorLimits): StreamCursor {
	let floorMs = cursor.floorMs;
	if (cursor.newestMs !== null && !limits.reading) floorMs = Math.max(floorMs ?? -Infinity, Math.min(cursor.newestMs, nowMs) - limits.overlapMs);
	let kept = [...cursor.seen].filter(([, ms]) => floorMs === null || ms >= floorMs);
	if (kept.length > limits.maxSeen) {
		kept.sort((a, b) => b[1] - a[1]);
		// Cut before the first reference beyond the bound, backed up to the start of its instant.
		let cut = limits.maxSeen;
		while (cut > 0 && kept[cut - 1][1] === kept[cut][1]) cut--;
		if (cut === 0) {
			// The newest instant alone is larger than the bound: it is kept whole.
			cut = kept.findIndex(([, ms]) => ms !== kept[0][1]);
			if (cut === -1) cut = kept.length;
		}
		kept = kept.slice(0, cut);
		floorMs = Math.max(floorMs ?? -Infinity, kept[kept.length - 1][1]);
	}
	return { floorMs, newestMs: cursor.newestMs, seen: new Map(kept) };
}

/** The JSON kept in static data. */
export function cursorToJson(cursor: StreamCursor): { floorMs: number | null; newestMs: number | null; seen: Array<[string, number]> } {
	return { floorMs: cursor.floorMs, newestMs: cursor.newestMs, seen: [...cursor.seen] };
}

/** A cursor read back from static data, or undefined when it is missing or not of this shape. */
export function parseCursor(value: unknown): StreamCursor | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as { floorMs?: unknown; newestMs?: unknown; seen?: unknown };
	const isMs = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x));
	if (!isMs(v.floorMs) || !isMs(v.newestMs) || typeof v.seen !== 'object' || v.seen === null) return undefined;
	// Saved as [reference, ms] pairs; earlier versions saved a plain object (a reference such as "__proto__" was lost).
	const pairs = Array.isArray(v.seen) ? (v.seen as unknown[]) : Object.entries(v.seen as Record<string, unknown>);
	const seen = new Map<string, number>();
	for (const pair of pairs) {
		if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number') seen.set(pair[0], pair[1]);
	}
	return { floorMs: (v.floorMs as number | null) ?? null, newestMs: (v.newestMs as number | null) ?? null, seen };
}
