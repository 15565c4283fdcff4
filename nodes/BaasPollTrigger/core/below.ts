/**
 * What lies below the deepest mirrored record, for the check for records written late (check.ts): down to the floor
 * or the list's end, nothing may have been written there unseen. Tasks (steps.ts): they read by asking the poll.
 */
import type { ListFollower } from './follow';
import type { LookBelowFrame, SentinelHoldsFrame } from './frames';
import { endsList, take } from './frames';
import { belowOf, historyFloor, isValid, lastValid } from './memory';
import type { Steps } from './steps';
import { call, done, go, needFor, read } from './steps';
import type { Page } from './types';
import { startOf, windowFor } from './windows';

/**
 * Whether the entry the last check saw right below the deepest mirrored record (ListState.belowDeepest) is still
 * there, at its rank from the place this poll read: then nothing was written between the place and it (that would
 * push it down) nor below the deepest record down to the floor (it is older than the floor, or the list's end), and
 * the check has ended with one request. Asked only where the check's first page would not show it (every page
 * holding the deepest record ends with it: a bank serving one record a page); undefined when not asked.
 */
export const sentinelHoldsSteps: Steps<SentinelHoldsFrame> = {
	start: (f, t) => {
		const { state } = f;
		t.rank = (state.lag ?? 0) + t.deepest;
		const first = windowFor(t.rank, state.paging.cap, 'top', 0);
		if (state.belowDeepest?.deepest !== state.memory.mirror[t.deepest] || t.rank - startOf(first) !== first.size - 1) return done(undefined);
		return read(windowFor(t.rank + 1, state.paging.cap, 'top', 0), 'check', 'read');
	},
	read: (f, t, answer) => {
		const page = answer as Page;
		const at = t.rank + 1 - page.start;
		const reference = f.state.belowDeepest?.reference;
		if (reference !== undefined) return done(page.slots[at]?.reference === reference);
		if (page.slots.length !== at) return done(false);
		return page.slots.length === 0 ? done(true) : call(endsList(page, 'check'), 'ends');
	},
	ends: (_f, _t, answer) => done(answer),
};

/** Notes what `page` (placed in this poll) shows right below the deepest mirrored record: history, or the list's end. */
function noteBelowDeepest(f: ListFollower, deepest: number, page: Page, endsList: boolean, floorMs: number | null): void {
	const { state } = f;
	const at = (state.lag ?? 0) + deepest + 1 - page.start;
	const slot = page.slots[at];
	const history = slot !== undefined && isValid(slot) && floorMs !== null && slot.createdMs < floorMs && !state.memory.seen.has(slot.reference);
	if (history) state.belowDeepest = { deepest: state.memory.mirror[deepest], reference: slot.reference };
	else if (at === page.slots.length && endsList) state.belowDeepest = { deepest: state.memory.mirror[deepest] };
}

/**
 * Below the deepest mirrored record (at `deepest`, in place), as far as the floor, as `last` shows it: 'settled'
 * when nothing was written there, 'reopened' when records were (they are read upward), 'extended' when the mirror
 * took in records handled before that lie there (mirrorBelow), 'read' when a page must show it.
 */
export const lookBelowSteps: Steps<LookBelowFrame> = {
	start: (f, t) => {
		const { state } = f;
		const memory = state.memory;
		const ms = memory.seen.get(memory.mirror[t.deepest]);
		// Below a record older than the floor lies history only; not while every unseen record is news (the start saw
		// the whole list): its floor lies right above the start's deepest record, which may be stamped in the bank's
		// future, and a bank listing by created_at lists every record written after it below it.
		const floorMs = historyFloor(state);
		if (floorMs !== null && ms !== undefined && ms < floorMs) return done('settled');
		const { last } = t;
		// A page that shows it, or starts right below it (it stands in place: its rank is known).
		if (last === undefined || (shownAt(f, t) < 0 && last.page.start !== (state.lag ?? 0) + t.deepest + 1)) return done('read');
		if (last.endsList || !last.page.short) {
			t.endsList = last.endsList;
			return go('judge');
		}
		return call(endsList(last.page, needFor(f)), 'ends');
	},
	ends: (_f, t, answer) => {
		t.endsList = answer === true;
		return go('judge');
	},
	judge: (f, t) => {
		const { state } = f;
		const memory = state.memory;
		const probe = memory.mirror[t.deepest];
		const ms = memory.seen.get(probe);
		const floorMs = historyFloor(state);
		const last = t.last as NonNullable<LookBelowFrame['last']>;
		const endsList = t.endsList === true;
		const shown = shownAt(f, t);
		const below = belowOf(memory, last.page.slots, shown, endsList, floorMs);
		if (below.settled && !below.newBelow) noteBelowDeepest(f, t.deepest, last.page, endsList, floorMs);
		if (below.settled && below.newBelow && shown < 0 && ms !== undefined) {
			// New records on the page right below the record in place, down to history or the list's end: they lie
			// between the two, so they are handed on as if one page showed the record above them (when the bank's cap
			// fixes a page boundary right below it, no page shows both).
			return call(take(last.page.window, underRecord(last.page, probe, ms), true, false, endsList), 'settled');
		}
		if (below.settled) return done('settled');
		if (!below.lateBelow) {
			if (shown >= 0 || ms === undefined) return done('read');
			// The page right below the deepest mirrored record (in place) shows records handled before and no longer
			// mirrored (nothing new, nothing older than the floor): the mirror takes them in, as a page showing the
			// deepest record with them would give them, and the check goes on below them ('extended'). Read again and
			// again instead, that one page settled nothing and the check stood there for good, a record written late
			// further down never found.
			return call(take(last.page.window, underRecord(last.page, probe, ms), true, false, false), 'mirrored');
		}
		f.reopen(memory.mirror.length, last.page.start + last.page.slots.length, false);
		return done('reopened');
	},
	settled: () => done('settled'),
	mirrored: (f, t) => done(lastValid(f.state.memory.mirror) > t.deepest ? 'extended' : 'read'),
};

/** Where the last page showed the deepest mirrored record (-1: it did not). */
function shownAt(f: ListFollower, { deepest, last }: LookBelowFrame): number {
	const probe = f.state.memory.mirror[deepest];
	return last === undefined ? -1 : last.page.slots.findIndex((slot) => slot.reference === probe);
}

/** `page`, which starts right below a record in place, read as if it showed that record above its first entry. */
const underRecord = (page: Page, reference: string, createdMs: number): Page => ({
	window: page.window,
	start: page.start - 1,
	slots: [{ reference, createdMs }, ...page.slots],
	short: page.short,
});
