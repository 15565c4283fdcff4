/**
 * What lies below the deepest mirrored record, for the check for records written late (check.ts): down to the floor
 * or the list's end, nothing may have been written there unseen. Pure: it reads by yielding.
 */
import type { ListFollower } from './follow';
import { belowOf, historyFloor, isValid, lastValid } from './memory';
import type { Core, Page } from './types';
import { startOf, windowFor } from './windows';

/**
 * Whether the entry the last check saw right below the deepest mirrored record (ListState.belowDeepest) is still
 * there, at its rank from the place this poll read: then nothing was written between the place and it (that would
 * push it down) nor below the deepest record down to the floor (it is older than the floor, or the list's end), and
 * the check has ended with one request. Asked only where the check's first page would not show it (every page
 * holding the deepest record ends with it: a bank serving one record a page); undefined when not asked.
 */
export function* sentinelHolds(f: ListFollower, deepest: number): Core<boolean | undefined> {
	const { state } = f;
	const sentinel = state.belowDeepest;
	const rank = (state.lag ?? 0) + deepest;
	const first = windowFor(rank, state.paging.cap, 'top', 0);
	if (sentinel?.deepest !== state.memory.mirror[deepest] || rank - startOf(first) !== first.size - 1) return undefined;
	const window = windowFor(rank + 1, state.paging.cap, 'top', 0);
	const page = yield* f.read(window, 'check');
	const at = rank + 1 - page.start;
	if (sentinel.reference !== undefined) return page.slots[at]?.reference === sentinel.reference;
	return page.slots.length === at && (page.slots.length === 0 || (yield* f.endsList(page, 'check')));
}

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
export function* lookBelow(f: ListFollower, deepest: number, last: { page: Page; endsList: boolean } | undefined): Core<'settled' | 'reopened' | 'extended' | 'read'> {
	const { state } = f;
	const memory = state.memory;
	const probe = memory.mirror[deepest];
	const ms = memory.seen.get(probe);
	// Below a record older than the floor lies history only; not while every unseen record is news (the start saw
	// the whole list): its floor lies right above the start's deepest record, which may be stamped in the bank's
	// future, and a bank listing by created_at lists every record written after it below it.
	const floorMs = historyFloor(state);
	if (floorMs !== null && ms !== undefined && ms < floorMs) return 'settled';
	const shown = last === undefined ? -1 : last.page.slots.findIndex((slot) => slot.reference === probe);
	// A page that shows it, or starts right below it (it stands in place: its rank is known).
	if (last === undefined || (shown < 0 && last.page.start !== (state.lag ?? 0) + deepest + 1)) return 'read';
	const endsList = last.endsList || (last.page.short && (yield* f.endsList(last.page)));
	const below = belowOf(memory, last.page.slots, shown, endsList, floorMs);
	if (below.settled && !below.newBelow) noteBelowDeepest(f, deepest, last.page, endsList, floorMs);
	if (below.settled && below.newBelow && shown < 0 && ms !== undefined) {
		// New records on the page right below the record in place, down to history or the list's end: they lie
		// between the two, so they are handed on as if one page showed the record above them (when the bank's cap
		// fixes a page boundary right below it, no page shows both).
		yield* f.take(last.page.window, underRecord(last.page, probe, ms), true, false, endsList);
		return 'settled';
	}
	if (below.settled) return 'settled';
	if (!below.lateBelow) return shown < 0 && ms !== undefined ? yield* mirrorBelow(f, deepest, last.page, ms) : 'read';
	f.reopen(memory.mirror.length, last.page.start + last.page.slots.length, false);
	return 'reopened';
}

/**
 * The page right below the deepest mirrored record (in place) shows records handled before and no longer mirrored
 * (nothing new, nothing older than the floor): the mirror takes them in, as a page showing the deepest record with
 * them would give them, and the check goes on below them ('extended'). Read again and again instead, that one page
 * settled nothing and the check stood there for good, a record written late further down never found.
 */
function* mirrorBelow(f: ListFollower, deepest: number, page: Page, ms: number): Core<'extended' | 'read'> {
	const memory = f.state.memory;
	yield* f.take(page.window, underRecord(page, memory.mirror[deepest], ms), true, false, false);
	return lastValid(memory.mirror) > deepest ? 'extended' : 'read';
}

/** `page`, which starts right below a record in place, read as if it showed that record above its first entry. */
const underRecord = (page: Page, reference: string, createdMs: number): Page => ({
	window: page.window,
	start: page.start - 1,
	slots: [{ reference, createdMs }, ...page.slots],
	short: page.short,
});
