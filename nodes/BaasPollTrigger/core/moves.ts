/**
 * Which page the core reads next, for each of its needs: the place's page (placeMove), the search's probe
 * (searchMove), the check's pages (boundsMove, belowMove). Each is a pure function of the saved state and what this
 * poll read, so each choice can be tested alone (test/unit/poll-moves.test.ts); the follower (follow.ts, search.ts,
 * check.ts) reads the page, learns what it shows, and asks again.
 */
import { firstValid, MALFORMED } from './memory';
import type { Bounds } from './offsets';
import { mirrorIndexOf } from './offsets';
import type { ListState, Page } from './types';
import type { Window } from './windows';
import { firstSlack, startOf, windowFor, windowHolding } from './windows';

/**
 * The page that should show the place (the newest handled record that is a record: a malformed entry places
 * nothing), at `rank`, with room below it for what the bank wrote above it since it was read (`slack`; the first page
 * of a poll: what it wrote between the last two polls, ListState.grewBy). `across`: no page holds the place and a
 * record above it (the cap divides its rank): the page above is read too (core/across.ts). Undefined with nothing
 * handled to stand on.
 */
export function placeMove(state: ListState, placed: boolean, slack: number): { window: Window; rank: number; across: boolean } | undefined {
	const anchor = firstValid(state.memory)?.index;
	if (anchor === undefined || state.lag === null) return undefined;
	const cap = state.paging.cap;
	const rank = state.lag + anchor;
	const room = placed ? slack : firstSlack(slack, cap, state.grewBy);
	const window: Window = rank <= cap - 1 - room ? { page: 1, size: cap } : windowFor(rank, cap, 'bottom', room, anchor + 1);
	return { window, rank, across: state.lag > 0 && startOf(window) >= state.lag };
}

/**
 * The search's next page for the place, between its saved bounds (`searchFrom`, at or below which the place lies;
 * `searchTo`, above which it was seen): the first probe of a search at its lower bound, then pages further down,
 * doubling, until one lies below the place, then halving between the bounds. A walk up through pages of malformed
 * entries goes on where an earlier poll left it (`searchAbove`): the page ending there.
 */
export function searchMove(state: ListState, probes: number, resumed: boolean): Window {
	const cap = state.paging.cap;
	const lo = state.searchFrom ?? 0;
	if (state.searchAbove !== undefined && state.searchAbove >= lo) return windowFor(state.searchAbove, cap, 'bottom', 0, 0);
	// The second round (the bounds met on nothing once) steps down page by page from its lower bound (where the place
	// was last read, search.ts): every page it reads starts no lower than where the place may lie, so each is placed
	// by its rank, never by created_at (in a list the bank orders as it wrote records, stamps steered the halving past
	// the place twice, and once the place was given up the floor placed history as news: fuzz seeds 219505, 424307,
	// 446057).
	if (state.searchMet === true) return windowFor(lo, cap, 'top', 0);
	if (state.searchTo !== undefined) return windowFor(lo + Math.max(0, Math.floor((state.searchTo - lo - cap) / 2)), cap, 'top', 0);
	return windowFor(probes === 0 && !resumed ? lo : Math.max(lo + cap, 2 * lo), cap, 'top', 0);
}

/** What one round of the check knows when it picks its next page. */
export interface CheckView {
	mirror: string[];
	/** The place: the rank of the mirror's first entry. */
	lag: number;
	cap: number;
	/** Mirror index of the deepest record, and of the deepest seen in place (`good`; -1: none). */
	deepest: number;
	from: number;
	/** The bounds as offsets in the mirror as it stands now (core/offsets.ts). */
	bounds: Bounds;
	/** The last page this poll's check read (or the page that placed the trigger), and its window as a key. */
	last?: { page: Page; endsList: boolean };
	lastWindow?: string;
	/** Records whose probe showed no mirrored record in this poll, and how many times. */
	blind: ReadonlyMap<string, number>;
	/** Records whose offset a page of this check showed (their ranks are measured, not remembered). */
	measured: ReadonlySet<string>;
	/** Requests the poll has left for this list. */
	requestsLeft: number;
}

/**
 * A page to read (`measuring`: the deepest record's offset; `probing`: the record halfway, for the halving), the place
 * moved down to mirror entry `index` to read a stretch upward from it (ListFollower.reopen), or no page in this poll.
 */
export type CheckMove =
	| { kind: 'read'; window: Window; measuring?: true; probing?: string }
	| { kind: 'reopen'; index: number; rank: number; shown: boolean }
	| { kind: 'pause' };

/**
 * Step 2, once the page below the deepest record must show what lies there (core/below.ts said so): a page holding it
 * and as much as possible below it; when every page holding it ends with it, the page right below it. So too when
 * that page ends no lower than the page just read (no page holds it nearer its top), if the poll has a request left
 * for it; if not, the check pauses, and the records held for it go on. (Asked for the page just read again, the check
 * found nothing new and stopped there at every poll, for good: a record written below an entry with no record under
 * the deepest one was never found.)
 */
export function belowMove(view: CheckView): CheckMove {
	const { lag, cap, deepest, last } = view;
	let window = windowFor(lag + deepest, cap, 'top', 0);
	const lastEnd = last === undefined ? -1 : last.page.start + last.page.slots.length;
	const readBefore = !last?.page.short && startOf(window) + window.size <= lastEnd;
	if (readBefore && view.requestsLeft < 1) return { kind: 'pause' };
	// (Past the page just read when it already showed what lies right below the record.)
	const next = readBefore && lastEnd > lag + deepest + 1 ? lastEnd : lag + deepest + 1;
	if (readBefore || lag + deepest - startOf(window) === window.size - 1) window = windowFor(next, cap, 'top', 0);
	return { kind: 'read', window };
}

/**
 * Step 1 and the halving, while the deepest record is not known in place. With no offset known for it (or its bound
 * at or above the last record seen in place), the page it opens, which also shows what lies below it. Otherwise the
 * deepest stretch lies between the shallower bound (or `good`) and `bad`: a page showing both when it fits in one;
 * else the page that shows the record halfway where it would stand if it lies in the stretch, then (a probe that
 * showed no mirrored record: a record written late stands at that rank) the page that shows it in place; neither, or
 * nothing mirrored between the two: the stretch is read upward from the deeper record, rather than the same page
 * asked for again for good.
 */
export function boundsMove(view: CheckView): CheckMove {
	const { mirror, lag, cap, deepest, from, bounds } = view;
	const indexOf = (reference: string | undefined) => mirrorIndexOf(mirror, reference);
	if (bounds.offset === undefined || indexOf(bounds.bad) <= from) return { kind: 'read', window: windowFor(lag + deepest, cap, 'top', 0), measuring: true };
	const offset = bounds.offset;
	const hi = indexOf(bounds.bad);
	const shallow = indexOf(bounds.shallow);
	const lo = shallow > from && shallow < hi ? shallow : from;
	const rankHi = lag + hi + offset;
	const span = rankHi - (lag + lo + (lo === from ? 0 : (bounds.shallowOffset ?? 0)));
	const holding = windowHolding(rankHi - span, rankHi, cap);
	if (holding !== undefined) return { kind: 'read', window: holding };
	const upward: CheckMove = { kind: 'reopen', index: hi, rank: rankHi, shown: view.measured.has(mirror[hi]) };
	const mid = validNear(mirror, Math.floor((lo + hi) / 2), lo, hi);
	if (mid === hi) return upward;
	const probing = mirror[mid];
	const tries = view.blind.get(probing) ?? 0;
	const inPlace = windowFor(lag + mid, cap, 'top', 0);
	if (tries === 0) return { kind: 'read', window: windowFor(lag + mid + offset, cap, 'bottom', 0), probing };
	if (tries === 1 && JSON.stringify(inPlace) !== view.lastWindow) return { kind: 'read', window: inPlace, probing };
	return upward;
}

/** A mirror index near `i` (strictly between `from` and `to`) holding a record, not a malformed slot; `to` if none. */
function validNear(mirror: string[], i: number, from: number, to: number): number {
	for (let d = 0; d < to - from; d++) {
		for (const j of [i - d, i + d]) if (j > from && j < to && mirror[j] !== MALFORMED) return j;
	}
	return to;
}
