/**
 * The check for records the bank wrote late, behind the place (follow.ts calls it once the place is known in a
 * poll): they are older than anything above the place, so they come first. Pure: it reads by yielding.
 * 1. The deepest mirrored record must stand at the rank the mirror gives it: if it does, nothing was written (or
 *    removed) above it that the mirror lacks. If not, halving finds the shallowest record at the deepest one's
 *    offset: the deepest stretch of late records lies just above it. A page showing the stretch between records
 *    handled hands them on; a stretch longer than a page is read upward from that record (the place moves down to
 *    it). Shallower stretches come next, each newer than the one before.
 * 2. Below the deepest mirrored record, down to the floor: records written there are read the same way.
 */
import { remembered } from './across';
import type { ListFollower } from './follow';
import { lastValid } from './memory';
import { lookBelow, sentinelHolds } from './below';
import { boundsOf, keepInOrder, learnBounds, mirrorIndexOf, saveBounds } from './offsets';
import type { CheckProgress, Core, Page } from './types';
import type { CheckMove, CheckView } from './moves';
import { belowMove, boundsMove } from './moves';

/**
 * Looks for records the bank wrote late, behind the place. Only once the trigger is up to the newest record.
 * 1. The deepest mirrored record must stand at the rank the mirror gives it: if it does, nothing was written (or
 *    removed) above it that the mirror lacks. If not, halving finds the shallowest record at the deepest one's
 *    offset: the deepest stretch of late records lies just above it. A page showing the stretch between records
 *    handled hands them on; a stretch longer than a page is read upward from that record (the place moves down to
 *    it). Shallower stretches come next, each newer than the one before.
 * 2. Below the deepest mirrored record, down to the floor: records written there are read the same way.
 */
export function* lookForLateRecords(f: ListFollower): Core<void> {
	const { state } = f;
	// Once the place is known in this poll (before a backlog above it is read, so what was written late behind it
	// comes first), and once a poll.
	if (!f.placed || state.lag === null || f.placing === undefined || f.checkRan) return;
	f.enter('check');
	// A bank that lists records as it wrote them writes nothing behind the place (a list that gains records as their
	// status changes, the failed transfers, is always checked).
	if (state.paging.asWritten === true && f.options.gainsByStatus !== true) return yield* release(f, true);
	const indexOf = (reference: string | undefined) => mirrorIndexOf(state.memory.mirror, reference);
	const progress: CheckProgress = { good: (f.placing?.verifiedTo ?? -1) >= 0 ? state.memory.mirror[f.placing?.verifiedTo as number] : undefined };
	// An earlier poll's check that ran out of requests goes on where it stood (its records still mirrored).
	const resumed = state.check;
	if (resumed?.good !== undefined && indexOf(resumed.good) > indexOf(progress.good)) progress.good = resumed.good;
	if (resumed?.bad !== undefined && indexOf(resumed.bad.reference) > indexOf(progress.good)) {
		const bounds = { ...boundsOf(state.memory.mirror, resumed), good: progress.good };
		keepInOrder(bounds, indexOf);
		saveBounds(state.memory.mirror, progress, bounds);
	}
	// Saved as it goes: a poll out of requests (or time) leaves it to the next; a check that ended clears it.
	state.check = progress;
	// A check the poll has no more requests for waits, suspended, for the poll's next turn (or ends with the poll).
	const ended = yield* checkBehind(f, progress);
	if (f.stopped) return;
	yield* release(f, ended);
}

/**
 * The check ended (`ended`) or can go no further in this poll: the page held for it is handed on now (unless the
 * check moved the place: it is read again). A check that can go no further lets it go too: records are late by a
 * poll rather than stuck.
 */
function* release(f: ListFollower, ended: boolean): Core<void> {
	const { state } = f;
	if (ended) state.check = undefined;
	f.enter(ended ? 'checked' : 'checkPaused');
	const held = f.hold.page;
	f.hold.page = undefined;
	if (held !== undefined && state.lag !== null) yield* f.take(held.window, held.page, false, held.extend);
	// Counted as a poll that held its page until all of it is handed on.
	if (!f.stopped) state.heldPolls = undefined;
}

/** The rounds of one check (lookForLateRecords), from `progress`; true once it ended (found, or nothing there). */
function* checkBehind(f: ListFollower, progress: CheckProgress): Core<boolean> {
	const { state } = f;
	const memory = state.memory;
	const base = () => state.lag ?? 0;
	const indexOf = (reference: string | undefined) => mirrorIndexOf(memory.mirror, reference);
	/** References whose offset a page of this check showed (their ranks are measured, not remembered). */
	const measured = new Set<string>();
	/** Records whose probe (the halving's page) showed no mirrored record, and how many times in this poll. */
	const blind = new Map<string, number>();
	let last: { page: Page; endsList: boolean } | undefined = f.placing;
	let lastWindow: string | undefined;
	for (let round = 0; state.lag !== null; round++) {
		const cap = f.state.paging.cap;
		const deepest = lastValid(memory.mirror);
		if (deepest < 0) return true;
		const from = indexOf(progress.good);
		// The bounds as offsets in the mirror as it stands now (derived from what pages showed: offsets.ts).
		const bounds = boundsOf(memory.mirror, progress);
		if (round === 0 && deepest > from && bounds.offset === undefined) {
			const holds = yield* sentinelHolds(f, deepest);
			if (holds === true) return true;
			if (holds === false) state.belowDeepest = undefined;
		}
		const view = (): CheckView => ({ mirror: memory.mirror, lag: base(), cap, deepest, from, bounds, last, lastWindow, blind, measured, requestsLeft: f.options.requestsLeft() });
		let move: CheckMove;
		if (deepest <= from) {
			// Step 2: the deepest mirrored record stands where the mirror has it. Below it, down to the floor?
			const below = yield* lookBelow(f, deepest, underRemembered(f, deepest, last));
			if (below === 'extended') {
				// In place below the record that was: the check goes on from the new deepest one, on the same page.
				progress.good = memory.mirror[lastValid(memory.mirror)];
				continue;
			}
			if (below !== 'read') return true;
			move = belowMove(view());
		} else move = boundsMove(view());
		if (move.kind === 'pause') return false;
		if (move.kind === 'reopen') {
			f.reopen(move.index, move.rank, move.shown);
			return true;
		}
		const { window, measuring, probing } = move;
		const key = JSON.stringify(window);
		if (key === lastWindow) {
			// The same page again. A short one may hide what is sought below it: whether the bank caps its pages is
			// judged first (a cap learned, the next round asks for pages it serves); otherwise the next poll looks again.
			if (last === undefined || !last.page.short || last.endsList || (yield* f.endsList(last.page, 'check'))) return false;
			continue;
		}
		lastWindow = key;
		const wasDeepest = memory.mirror[deepest];
		// The page that placed the trigger in this poll, when it is the one asked for, is taken as read: read again,
		// it costs the request that judging it (below) needs.
		const placingPage = f.placing !== undefined && JSON.stringify(f.placing.page.window) === key ? f.placing.page : undefined;
		const taken = yield* f.take(window, placingPage, true);
		if (f.stopped) return false;
		if (taken.outcome === 'capped') continue;
		last = taken;
		const shown = offsetsIn(f, taken.page);
		for (const reference of shown.keys()) measured.add(reference);
		if (probing !== undefined && shown.size === 0) blind.set(probing, (blind.get(probing) ?? 0) + 1);
		learn(f, progress, shown);
		if (measuring && !shown.has(wasDeepest) && indexOf(wasDeepest) >= 0) {
			// A short page that stops above the deepest record's rank may be the bank's page cap, not records written
			// above it: judged first (a cap learned, the next round asks for pages the bank serves).
			const reaches = taken.page.start + taken.page.slots.length > base() + deepest;
			if (taken.page.short && !reaches && !taken.endsList && !(yield* f.endsList(taken.page, 'check'))) continue;
			// The deepest record is not where it could be: more records were written above it than its page holds
			// (or the bank no longer lists it there). The list is read upward from it, found again by a search.
			f.reopen(indexOf(wasDeepest), taken.page.start + taken.page.slots.length, false);
			return true;
		}
	}
	return false;
}

/**
 * `last`, when it starts right below the entries with no record the mirror holds under its deepest record (at
 * `deepest`), read as if it showed them too (as remembered, like takeAcross): the check then looks below the record
 * through them. (Read only from right below the record, a run of such entries longer than a page held the check
 * there at every poll, and a record written late under them was never found.)
 */
function underRemembered(f: ListFollower, deepest: number, last: { page: Page; endsList: boolean } | undefined): { page: Page; endsList: boolean } | undefined {
	const mirror = f.state.memory.mirror;
	const run = mirror.length - 1 - deepest;
	if (last === undefined || run <= 0 || last.page.start !== (f.state.lag ?? 0) + mirror.length) return last;
	return { ...last, page: { ...last.page, start: last.page.start - run, slots: [...remembered(run), ...last.page.slots] } };
}

/** The offset of each mirrored record `page` shows (see CheckProgress), by reference. */
function offsetsIn(f: ListFollower, page: Page): Map<string, number> {
	const lag = f.state.lag ?? 0;
	const mirror = f.state.memory.mirror;
	const offsets = new Map<string, number>();
	page.slots.forEach((slot, position) => {
		const index = mirrorIndexOf(mirror, slot.reference);
		if (slot.reference !== undefined && index >= 0) offsets.set(slot.reference, page.start + position - (lag + index));
	});
	return offsets;
}

/** What one page's offsets say of where the deepest stretch of late records lies (learnBounds, offsets.ts). */
function learn(f: ListFollower, saved: CheckProgress, shown: Map<string, number>): void {
	const mirror = f.state.memory.mirror;
	const inPlace = (f.placing?.verifiedTo ?? -1) >= 0 ? mirror[f.placing?.verifiedTo as number] : undefined;
	saveBounds(mirror, saved, learnBounds(mirror, inPlace, boundsOf(mirror, saved), shown));
}
