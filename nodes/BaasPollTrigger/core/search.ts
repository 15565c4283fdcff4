/**
 * The search for the place, when no page of a poll showed it (more records were written above it than the page had
 * room for, or a check moved it down): pages further down until one lies below it, then halving. Which way to go
 * is told by what a page holds, never by created_at alone (a bank may list out of created_at order). Pure.
 */
import type { ListFollower, Taken } from './follow';
import type { JudgeFrame, SearchFromFrame, SearchStepFrame, TakeAboveEndFrame, TakeLastFrame } from './frames';
import { endsList, endStillAt, judge, searchStep, take, takeAboveEnd, takeLast, withNextPage } from './frames';
import type { Reading } from './memory';
import { firstValid, historyFloor, isValid } from './memory';
import { remembered } from './across';
import type { ListState, Page } from './types';
import { searchMove } from './moves';
import type { Steps } from './steps';
import { call, done, go, needFor, read } from './steps';
import type { Window } from './windows';
import { startOf, windowFor } from './windows';

/**
 * The place was not in `taken`, the page that should have shown it: records written since pushed it further down
 * (or it is gone). `rank`: where the place was last read. Records are written above it (or late, below it), so it
 * never rises: a page holding that rank and not showing it lies above it, whatever its records' created_at says (a
 * record written late with an old stamp may top a list ordered as written; judged by it, the search looked above the
 * place and gave it up for good). Should the bank have removed records, the search meets on nothing and looks again
 * from the top.
 */
export const searchFromSteps: Steps<SearchFromFrame> = {
	start: (f, t) => {
		const { state } = f;
		const { page } = t.taken;
		const end = page.start + page.slots.length;
		state.grewBy = undefined;
		state.lag = null;
		clearSearch(state, undefined, t.rank);
		if (page.start <= t.rank && t.rank < end) {
			state.searchFrom = end;
			return go('judged');
		}
		return call(judge(t.taken), 'judged');
	},
	judged: (f) => (f.state.lag === null ? call(searchStep(), 'end') : done()),
	end: () => done(),
};

/** One page of the search for the place: below the last page known to be above it, then halving. */
export const searchStepSteps: Steps<SearchStepFrame> = {
	start: (f, t) => {
		const { state } = f;
		t.cap = state.paging.cap;
		if (state.searchTo === undefined || state.searchTo > (state.searchFrom ?? 0)) return go('probe');
		t.lo = state.searchFrom ?? 0;
		// Nothing mirrored, and the list ends at `lo`: a page reaching past that rank is placed by the end. With
		// nothing at all after the floor, the list is read up to its newest record. The bounds are cleared once that
		// page is read: a poll that ends before it (no request left) leaves them for the next, which reads it.
		// (The page starts as low as it can and still hold the last record, so it reaches past the end.)
		if (firstValid(state.memory) === undefined) return t.lo > 0 ? call(takeLast(t.lo), 'last') : go('lastDone');
		state.searchTo = undefined;
		// The bounds met on nothing. Either bound may be wrong: an upper one from an earlier poll (records written
		// above since pushed the place below it), or one judged by created_at, which in a list ordered as the bank wrote
		// records says nothing of where a record lies. The place is looked for once more, a page at a time down from
		// where it was last read (searchMove), each page placed by its rank alone; meeting again, it is gone.
		if (state.searchMet === true) {
			lost(f);
			return done();
		}
		state.searchMet = true;
		state.searchFrom = state.searchBase;
		return go('probe');
	},
	last: (_f, t, answer) => {
		if (answer === 'endUnderMalformed') return done();
		// The list holds entries with no record only: placed at its top, as an empty list is (noRecords).
		if (answer === 'noRecords') t.lo = 0;
		return go('lastDone');
	},
	lastDone: (f, t) => {
		const { state } = f;
		if (t.lo === 0) {
			state.lag = 0;
			state.searchFrom = undefined;
			f.enter('climb');
		}
		state.searchTo = undefined;
		return done();
	},
	probe: (f, t) => {
		const { state } = f;
		t.lo = state.searchFrom ?? 0;
		const window = searchMove(state, f.search.probes, f.search.resumed);
		f.search.probes++;
		return call(take(window), 'taken');
	},
	// A page of malformed entries only says nothing of where the place lies (taken for "below", a search stepped past
	// a place right above it for good): the page above it does, read until one shows a record or reaches the search's
	// lower bound. How far the walk got is saved: a run of such pages longer than a poll's requests is still crossed.
	taken: (f, t, answer) => {
		const { state } = f;
		const taken = answer as Taken;
		if (taken.outcome === 'unplaced' && showsNoRecord(taken.page) && taken.page.start > t.lo) {
			state.searchAbove = taken.page.start - 1;
			return call(take(windowFor(state.searchAbove, t.cap, 'bottom', 0, 0)), 'taken');
		}
		state.searchAbove = undefined;
		return taken.outcome === 'unplaced' ? call(judge(taken), 'end') : done();
	},
	end: () => done(),
};

/**
 * Forgets where the search for the place stood; `from`: a rank the place is known to lie at or below; `base`: the
 * rank it was last read at (ListState.searchBase), where not `from` itself.
 */
export function clearSearch(state: ListState, from?: number, base = from): void {
	state.searchFrom = from;
	state.searchBase = base;
	state.searchTo = undefined;
	state.searchMet = undefined;
	state.searchAbove = undefined;
}

/** Entries, none of them a record (null, no reference, no valid created_at). */
const showsNoRecord = (page: Page) => page.slots.length > 0 && !page.slots.some(isValid);

/**
 * The page holding the list's last record, at rank `lo` - 1 (nothing handled yet: a backfill, or a list read
 * afresh). When the page chosen ends right there (every page size up to the bank's cap does), it cannot show the
 * end (a short page): it and the page after it are read back to back, two requests or none, and taken as one when
 * nothing moved between the reads (withNextPage): an empty page after it places the end. Without it, such a page
 * places nothing and the search starts over, for good. 'endUnderMalformed': the list was seen to end at `lo` under
 * entries with no record only, and the poll had no requests left for the page above them: what was seen is kept
 * (searchAbove, with the bounds), and the next poll reads only that page and the end (endUnderMalformed).
 * 'noRecords': such entries from the list's top down: it is placed at its top.
 */
export const takeLastSteps: Steps<TakeLastFrame> = {
	start: (f, t) => {
		const above = f.state.searchAbove;
		return above !== undefined && above < t.lo ? call(takeAboveEnd(t.lo, above), 'aboveEnd') : go('window');
	},
	aboveEnd: (_f, _t, answer) => (answer !== 'moved' ? done(answer) : go('window')),
	window: (f, t) => {
		const window = windowFor(t.lo - 1, f.state.paging.cap, 'top', 0);
		t.window = window;
		if (startOf(window) + window.size > t.lo) return call(take(window), 'taken');
		return read(window, needFor(f), 'read', 2);
	},
	read: (_f, t, answer) => {
		t.page = answer as Page;
		return call(withNextPage(t.page), 'joined');
	},
	joined: (_f, t, answer) => call(take(t.window as Window, (answer as Page | undefined) ?? t.page), 'taken'),
	taken: (f, t, answer) => {
		const { state } = f;
		const taken = answer as Taken;
		const { lo } = t;
		if (state.lag !== null) return done('placed');
		const end = taken.page.start + taken.page.slots.length;
		if (end === lo && taken.endsList && showsNoRecord(taken.page)) {
			// From the list's top down to its end, no record: nothing to stand under ('noRecords'). Searched for on,
			// the place was looked for again and again within each poll until its time ran out, and nothing else
			// (a pending transfer's look-up) was ever done.
			if (taken.page.start === 0) return done('noRecords');
			state.searchAbove = taken.page.start - 1;
			return done('endUnderMalformed');
		}
		// The list ends above `lo`: the lower bound was wrong (a page judged before the bank's cap was known), and the
		// search starts again from the top rather than read past the end at every poll.
		if (taken.page.slots.length === 0) clearSearch(state);
		// With no floor (the list was empty at the start: every record counts), the place is the list's end. When the
		// list goes on below `lo` (entries with no record at its end, which no earlier page showed as the end), the end
		// lies below them and is looked for from there, not at `lo` again for good. (With a floor, the place is the
		// first record older than it, which this page did not show either; in a list ordered as written, reading on
		// below such a bound stood the trigger on history and emitted what lay above it: fuzz seed 74230.)
		else if (historyFloor(state) === null && end > lo) state.searchFrom = end;
		return done('searchOn');
	},
};

/**
 * An earlier poll saw the list end at `lo` under entries with no record only, from rank `above` + 1 down: the page
 * ending at `above`, then the end again. The list still ending at `lo` after the first read, nothing was written
 * between the two polls nor between the reads (records are written, not removed), so the page lies right above
 * those entries: taken as one page with them (as remembered, not read again) down to the end, which places it.
 * Reading the entries and the end again first, as a search afresh does, took two requests more than a poll at the
 * minimum Requests per Poll has beside the page above and a record's look-up: nothing was ever handed on (fuzz
 * seeds 50418, 91234). 'moved': the end is no longer at `lo`, and the search reads it afresh.
 */
export const takeAboveEndSteps: Steps<TakeAboveEndFrame> = {
	start: (f, t) => {
		t.cap = f.state.paging.cap;
		t.window = windowFor(t.above, t.cap, 'bottom', 0, 0);
		return read(t.window, needFor(f), 'read', 2);
	},
	read: (_f, t, answer) => {
		t.page = answer as Page;
		return call(endStillAt(t.lo, t.cap), 'endHolds');
	},
	endHolds: (f, t, answer) => {
		const { state } = f;
		const page = t.page as Page;
		state.searchAbove = undefined;
		const bottom = page.start + page.slots.length;
		if (page.short || bottom > t.lo || answer !== true) return done('moved');
		const joined: Page = { window: t.window, start: page.start, slots: [...page.slots, ...remembered(t.lo - bottom)], short: true };
		return call(take(t.window, joined, false, true, true), 'taken');
	},
	taken: (f, t) => {
		const { state } = f;
		const page = t.page as Page;
		if (state.lag !== null) return done('placed');
		// Entries with no record above those too: the walk up goes on from the page's top, at the next poll if need be.
		if (showsNoRecord(page) && page.start > 0) {
			state.searchAbove = page.start - 1;
			return done('endUnderMalformed');
		}
		return done('moved');
	},
};

/** Where the place lies against a page that did not show it. */
export const judgeSteps: Steps<JudgeFrame> = {
	start: (f, t) => {
		const { state } = f;
		const { page } = t.taken;
		const floorMs = historyFloor(state);
		const times = page.slots.filter((slot) => slot.createdMs !== undefined).map((slot) => slot.createdMs as number);
		// A page of records lies above the place, unless they are all history, older than the floor (below it).
		// created_at says no more: a bank may list out of created_at order. Nor does a floor that bounds no news (the
		// start saw the whole list): set by a lone record stamped in the bank's future, it took every page of news
		// written after it for history, and the search placed the trigger above them all, at every poll.
		if (page.slots.length === 0) t.below = false;
		// A page starting no lower than the rank the place lies at or below, not showing it, lies above it, whatever
		// its stamps: in a list the bank orders as it recorded records, one written late with an old stamp may top the
		// place. (With nothing mirrored there is no place, only where history begins, which the floor tells: Start From.)
		else if (firstValid(state.memory) !== undefined && page.start <= (state.searchFrom ?? 0)) t.below = true;
		else if (floorMs !== null && times.length > 0 && times.every((ms) => ms < floorMs)) t.below = false;
		else t.below = true;
		// A short page may be where the list ends: then the place is not below it.
		if (!t.taken.endsList && t.below && page.short) return call(endsList(page, needFor(f)), 'ends');
		t.endsList = t.taken.endsList;
		return go('judged');
	},
	ends: (_f, t, answer) => {
		t.endsList = answer === true;
		return go('judged');
	},
	judged: (f, t) => {
		const { state } = f;
		const { page } = t.taken;
		const end = page.start + page.slots.length;
		// The list ends here, and no page showed the place below: it lies above the page. New records here were written
		// late, below the place (the check behind it finds them); if the place is gone, the bounds meet twice
		// (searchMet).
		const below = t.below && !t.endsList;
		// With nothing mirrored the search looks for the list's end (or history): a page ending the list with no record
		// shows the end itself, and the bounds meet there. (Met at the page's top instead, a rank above the end, the
		// page read there never reached the end, and the search went round from the same bounds at every poll.)
		if (t.endsList && firstValid(state.memory) === undefined && showsNoRecord(page)) {
			state.searchFrom = end;
			state.searchTo = end;
			return done();
		}
		if (below) state.searchFrom = Math.max(state.searchFrom ?? 0, end);
		else state.searchTo = Math.min(state.searchTo ?? Infinity, page.start);
		return done();
	},
};

/**
 * The records the mirror holds are no longer listed where they must be (the bank removed them, or changed the
 * list): the mirror starts afresh from the floor. `seen` stays, so nothing handled is handed on again. The floor
 * stays too: it rises only above what is forgotten, and a record after it that was never handled is news. So does
 * `unseenIsNew`: nothing was forgotten since the start saw the whole list, so a record not in `seen` is still news
 * (dropped here, a floor a start set above a record stamped in the bank's future took every record after it for
 * history, for good).
 */
function lost(f: ListFollower): void {
	const { state } = f;
	state.memory.mirror = [];
	state.lag = null;
	clearSearch(state);
}

/**
 * The position of the history record `page` stands the trigger on: the page's first record older than the floor,
 * under entries with no record (it hands nothing on), on a page starting no lower than the search's lower bound
 * (news lies above it); and only while nothing was handled (a Start From backfill before its first record: the
 * floor is Start From itself, not one re-estimated from what was remembered when a place was lost, which in a list
 * ordered as the bank recorded records bounds nothing).
 */
export function standsOnHistory(state: ListState, page: Page, reading: Reading): number | undefined {
	if (reading.anchor !== 'floor' || reading.history === undefined || reading.history === 0 || reading.deliver.length > 0) return undefined;
	if (state.lag !== null || state.memory.seen.size > 0 || page.start > (state.searchFrom ?? -1)) return undefined;
	return reading.history;
}
