/**
 * Where a stream of the Poll Trigger stands, kept in the node's static data. Pure: no requests, no clock.
 *
 * The bank's lists are newest first and their date filters are day-grained, so the cursor is the bank's own
 * created_at: a poll reads back from the newest record until it passes `floorMs`, and the references seen at or
 * after the floor say which of those records were already handled. Records that share one timestamp are
 * therefore neither skipped nor repeated, and n8n's clock never enters the comparison.
 */
export interface StreamCursor {
	/** Records created before this (epoch ms, bank clock) are behind the trigger; null: every record counts. */
	floorMs: number | null;
	/** Newest created_at read so far, or null before the first record. */
	newestMs: number | null;
	/** reference → created_at (ms) of each record read at or after floorMs. */
	seen: Record<string, number>;
}

export interface CursorLimits {
	overlapMs: number;
	maxSeen: number;
}

export interface Stamp {
	reference: string;
	createdMs: number;
}

export function emptyCursor(floorMs: number | null): StreamCursor {
	return { floorMs, newestMs: null, seen: {} };
}

/** 'behind': older than the floor (handled before, or before the trigger's start); 'seen': read before; else 'new'. */
export function placeOf(cursor: StreamCursor, stamp: Stamp): 'behind' | 'seen' | 'new' {
	if (cursor.floorMs !== null && stamp.createdMs < cursor.floorMs) return 'behind';
	return cursor.seen[stamp.reference] !== undefined ? 'seen' : 'new';
}

/**
 * The cursor after a poll read `stamps` (every record at or after the floor it saw). The floor moves to
 * `overlapMs` behind the newest record and never back; references older than the floor are forgotten. When
 * more than `maxSeen` remain, whole instants are forgotten oldest first and the floor rises to the oldest kept
 * instant, so memory stays bounded without ever splitting a burst that shares one timestamp.
 */
export function advance(cursor: StreamCursor, stamps: Stamp[], limits: CursorLimits): StreamCursor {
	const seen: Record<string, number> = { ...cursor.seen };
	let newestMs = cursor.newestMs;
	for (const stamp of stamps) {
		seen[stamp.reference] = stamp.createdMs;
		if (newestMs === null || stamp.createdMs > newestMs) newestMs = stamp.createdMs;
	}
	let floorMs = cursor.floorMs;
	if (newestMs !== null) floorMs = Math.max(floorMs ?? -Infinity, newestMs - limits.overlapMs);
	let kept = Object.entries(seen).filter(([, ms]) => floorMs === null || ms >= floorMs);
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
	return { floorMs, newestMs, seen: Object.fromEntries(kept) };
}

/** A cursor read back from static data, or undefined when it is missing or not of this shape. */
export function parseCursor(value: unknown): StreamCursor | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as Partial<StreamCursor>;
	const isMs = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x));
	if (!isMs(v.floorMs) || !isMs(v.newestMs) || typeof v.seen !== 'object' || v.seen === null) return undefined;
	return { floorMs: v.floorMs ?? null, newestMs: v.newestMs ?? null, seen: { ...v.seen } };
}
