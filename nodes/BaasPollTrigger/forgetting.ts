/**
 * What a list forgets between polls, and the bank's clock it forgets by. A list remembers the last 15 minutes (the
 * overlap) by the bank's clock, at most 5,000 records; what it forgets it never takes for new again (the floor rises
 * above it). Pure: no requests.
 */
import type { ListFollower } from './core/follow';
import { trim } from './core/memory';
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

/**
 * The bank's clock now, for what a list forgets: as its list shows it (bankTimeOf), moved on by as long as n8n has
 * waited since the list last showed it later. A list the bank stopped writing to thus ages, and a quiet poll reads
 * its top page only once the overlap has passed, rather than checking the same stretch for ever. Only a duration of
 * n8n's clock is used: a bank clock ahead of or behind n8n's changes nothing. Raised (and saved) only when the list
 * shows a later time, so a quiet poll writes nothing.
 */
export function bankNowOf(list: ListState, nowMs: number): number | null {
	const shown = bankTimeOf(list);
	if (shown !== null && (list.clock === undefined || shown > list.clock.bankMs)) list.clock = { bankMs: shown, atMs: nowMs };
	if (list.clock === undefined) return shown;
	return Math.max(shown ?? -Infinity, list.clock.bankMs + Math.max(0, nowMs - list.clock.atMs));
}

/**
 * Bounds what a list remembers; the floor rises above whatever it forgets (and to `floorMs`, when given: the
 * failed-transfers list's look-back). A floor raised only by what is forgotten stays put at a quiet poll.
 */
export function forget(list: ListState, forgetBeforeMs: number | null, floorMs: number | null = null): void {
	const forgotten = trim(list.memory, { forgetBeforeMs, maxSeen: POLL_LIMITS.maxSeen, keepTop: POLL_LIMITS.keepTop });
	const raised = Math.max(forgotten ?? -Infinity, floorMs ?? -Infinity);
	if (raised > -Infinity) list.floorMs = Math.max(list.floorMs ?? -Infinity, raised);
}

/** Forgets what is older than the overlap behind the bank's clock, once the place is known to be up to date. */
export function forgetOld(list: ListState, follower: ListFollower | undefined, nowMs: number): void {
	// While a backlog is read, records not yet handed on lie above the floor, and until a check for records written
	// late has looked behind the place, they may lie there: it waits (only the count bound holds).
	const bankMs = bankNowOf(list, nowMs);
	if (follower?.caughtUp !== true || !follower.check.ended) return forget(list, null);
	forget(list, bankMs === null ? null : bankMs - POLL_LIMITS.overlapMs);
}
