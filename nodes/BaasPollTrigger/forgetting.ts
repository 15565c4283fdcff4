/**
 * What a list forgets between polls, and the bank's clock it forgets by. A list remembers the last 15 minutes (the
 * overlap) by the bank's clock as its list shows it, at most 5,000 records; what it forgets it never takes for new
 * again (the floor rises above it). Pure: no requests.
 */
import { trim } from './core/trim';
import type { ListState } from './core/types';
import { POLL_LIMITS } from './settings';

/**
 * The bank's clock as its list shows it, where a few records stamped in the future (a local time labelled UTC)
 * cannot reach it: of the newest 2·keepTop + 1 records handled (by the list's order), the created_at in the middle
 * (keepTop of them stamped later). A bank listing by created_at puts records stamped in the future on top, and the
 * middle is the newest below the top keepTop; one listing by the order it recorded them lists them among the rest,
 * and the middle still ignores up to keepTop of them wherever they are. Null while the list holds no more than
 * keepTop: nothing is forgotten by age then.
 */
export function bankTimeOf(list: ListState): number | null {
	const newest: number[] = [];
	for (const reference of list.memory.mirror) {
		const ms = list.memory.seen.get(reference);
		if (ms !== undefined) newest.push(ms);
		if (newest.length > 2 * POLL_LIMITS.keepTop) break;
	}
	if (newest.length <= POLL_LIMITS.keepTop) return null;
	newest.sort((a, b) => b - a);
	return newest[POLL_LIMITS.keepTop];
}

/** Bounds what a list remembers; the floor rises above whatever it forgets. */
export function forget(list: ListState, forgetBeforeMs: number | null): void {
	const remembered = list.memory.seen.size;
	const floorMs = trim(list.memory, { forgetBeforeMs, maxSeen: POLL_LIMITS.maxSeen, keepTop: POLL_LIMITS.keepTop });
	// A record forgotten may still be listed: from then on the floor tells history, and one kept only as a search's
	// direction while every unseen record was news (set by a record stamped in the bank's future) gives way to it.
	const forgot = list.memory.seen.size < remembered;
	if (floorMs !== null) list.floorMs = list.unseenIsNew && forgot ? floorMs : Math.max(list.floorMs ?? -Infinity, floorMs);
	if (forgot) delete list.unseenIsNew;
}

/**
 * Forgets what is older than the overlap behind the bank's clock. That clock is read from the records handled, so
 * while a backlog is read (oldest first) it stands behind every record not yet handed on, and records written late
 * land within the overlap of it.
 */
export function forgetOld(list: ListState): void {
	const bankMs = bankTimeOf(list);
	forget(list, bankMs === null ? null : bankMs - POLL_LIMITS.overlapMs);
}
