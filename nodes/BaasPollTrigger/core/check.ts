/**
 * The check for records the bank wrote late, behind the place (flow.ts runs it once the place is known in a
 * poll): they are older than anything above the place, so they come first. Tasks (steps.ts): they read by asking the
 * poll.
 * 1. The deepest mirrored record must stand at the rank the mirror gives it: if it does, nothing was written (or
 *    removed) above it that the mirror lacks. If not, halving finds the shallowest record at the deepest one's
 *    offset: the deepest stretch of late records lies just above it. A page showing the stretch between records
 *    handled hands them on; a stretch longer than a page is read upward from that record (the place moves down to
 *    it). Shallower stretches come next, each newer than the one before.
 * 2. Below the deepest mirrored record, down to the floor: records written there are read the same way.
 */
import { remembered } from './across';
import type { ListFollower, Taken } from './follow';
import type { CheckBehindFrame, LookForLateRecordsFrame, ReleaseFrame } from './frames';
import { checkBehind, endsList, lookBelow, release, sentinelHolds, take } from './frames';
import { lastValid } from './memory';
import { boundsOf, keepInOrder, learnBounds, mirrorIndexOf, saveBounds } from './offsets';
import type { CheckProgress, Page } from './types';
import type { CheckMove, CheckView } from './moves';
import { belowMove, boundsMove } from './moves';
import type { Outcome, Steps } from './steps';
import { call, done, go } from './steps';

/**
 * Looks for records the bank wrote late, behind the place. Only once the trigger is up to the newest record.
 * 1. The deepest mirrored record must stand at the rank the mirror gives it: if it does, nothing was written (or
 *    removed) above it that the mirror lacks. If not, halving finds the shallowest record at the deepest one's
 *    offset: the deepest stretch of late records lies just above it. A page showing the stretch between records
 *    handled hands them on; a stretch longer than a page is read upward from that record (the place moves down to
 *    it). Shallower stretches come next, each newer than the one before.
 * 2. Below the deepest mirrored record, down to the floor: records written there are read the same way.
 */
export const lookForLateRecordsSteps: Steps<LookForLateRecordsFrame> = {
	start: (f) => {
		const { state } = f;
		// Once the place is known in this poll (before a backlog above it is read, so what was written late behind it
		// comes first), and once a poll.
		if (!f.placed || state.lag === null || f.placing === undefined || f.checkRan) return done();
		f.enter('check');
		// A bank that lists records as it wrote them writes nothing behind the place (a list that gains records as
		// their status changes, the failed transfers, is always checked).
		if (state.paging.asWritten === true && f.options.gainsByStatus !== true) return call(release(true), 'end');
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
		// A check the poll has no more requests for waits where it stands for the poll's next turn (or ends with the poll).
		return call(checkBehind(progress, f.placing), 'checked');
	},
	checked: (f, _t, answer) => (f.stopped ? done() : call(release(answer === true), 'end')),
	end: () => done(),
};

/**
 * The check ended (`ended`) or can go no further in this poll: the page held for it is handed on now (unless the
 * check moved the place: it is read again). A check that can go no further lets it go too: records are late by a
 * poll rather than stuck.
 */
export const releaseSteps: Steps<ReleaseFrame> = {
	start: (f, { ended }) => {
		const { state } = f;
		if (ended) state.check = undefined;
		f.enter(ended ? 'checked' : 'checkPaused');
		const held = f.hold.page;
		f.hold.page = undefined;
		if (held !== undefined && state.lag !== null) return call(take(held.window, held.page, false, held.extend), 'taken');
		return go('taken');
	},
	taken: (f, { ended }) => {
		// Counted as a poll that held its page until the check ended and all of it is handed on.
		if (ended && !f.stopped) f.state.heldPolls = undefined;
		return done();
	},
};

/** The next round of the check. */
function nextRound(t: CheckBehindFrame) {
	t.round++;
	return go('round');
}

/** What this round knows when it picks its next page (moves.ts). */
function view(f: ListFollower, t: CheckBehindFrame): CheckView {
	const { cap, deepest, from, bounds, last, lastWindow, blind, measured } = t;
	return { mirror: f.state.memory.mirror, lag: f.state.lag ?? 0, cap, deepest, from, bounds, last, lastWindow, blind, measured, requestsLeft: f.options.requestsLeft() };
}

/** Reads the page `move` asks for (or pauses, or moves the place down to read a stretch upward). */
function makeMove(f: ListFollower, t: CheckBehindFrame, move: CheckMove): Outcome<CheckBehindFrame['at']> {
	if (move.kind === 'pause') return done(false);
	if (move.kind === 'reopen') {
		f.reopen(move.index, move.rank, move.shown);
		return done(true);
	}
	const { window, measuring, probing } = move;
	const key = JSON.stringify(window);
	const last = t.last;
	if (key === t.lastWindow) {
		// The same page again. A short one may hide what is sought below it: whether the bank caps its pages is
		// judged first (a cap learned, the next round asks for pages it serves); otherwise the next poll looks again.
		if (last === undefined || !last.page.short || last.endsList) return done(false);
		return call(endsList(last.page, 'check'), 'sameEnds');
	}
	t.lastWindow = key;
	t.measuring = measuring;
	t.probing = probing;
	t.wasDeepest = f.state.memory.mirror[t.deepest];
	// The page that placed the trigger in this poll, when it is the one asked for, is taken as read: read again, it
	// costs the request that judging it (below) needs.
	const placingPage = f.placing !== undefined && JSON.stringify(f.placing.page.window) === key ? f.placing.page : undefined;
	return call(take(window, placingPage, true), 'taken');
}

/** The page `taken` should have shown the deepest record at its offset and did not: the list is read upward from it. */
function reopenAtDeepest(f: ListFollower, t: CheckBehindFrame, taken: Taken) {
	f.reopen(mirrorIndexOf(f.state.memory.mirror, t.wasDeepest), taken.page.start + taken.page.slots.length, false);
	return done(true);
}

/** The rounds of one check (lookForLateRecords), from `progress`; true once it ended (found, or nothing there). */
export const checkBehindSteps: Steps<CheckBehindFrame> = {
	round: (f, t) => {
		const { state } = f;
		if (state.lag === null) return done(false);
		t.cap = state.paging.cap;
		t.deepest = lastValid(state.memory.mirror);
		if (t.deepest < 0) return done(true);
		t.from = mirrorIndexOf(state.memory.mirror, t.progress.good);
		// The bounds as offsets in the mirror as it stands now (derived from what pages showed: offsets.ts).
		t.bounds = boundsOf(state.memory.mirror, t.progress);
		if (t.round === 0 && t.deepest > t.from && t.bounds.offset === undefined) return call(sentinelHolds(t.deepest), 'sentinel');
		return go('choose');
	},
	sentinel: (f, _t, answer) => {
		if (answer === true) return done(true);
		if (answer === false) f.state.belowDeepest = undefined;
		return go('choose');
	},
	choose: (f, t) => {
		// Step 2: the deepest mirrored record stands where the mirror has it. Below it, down to the floor?
		if (t.deepest <= t.from) return call(lookBelow(t.deepest, underRemembered(f, t.deepest, t.last)), 'below');
		return makeMove(f, t, boundsMove(view(f, t)));
	},
	below: (f, t, answer) => {
		if (answer === 'extended') {
			// In place below the record that was: the check goes on from the new deepest one, on the same page.
			const mirror = f.state.memory.mirror;
			t.progress.good = mirror[lastValid(mirror)];
			return nextRound(t);
		}
		if (answer !== 'read') return done(true);
		return makeMove(f, t, belowMove(view(f, t)));
	},
	sameEnds: (_f, t, answer) => (answer === true ? done(false) : nextRound(t)),
	taken: (f, t, answer) => {
		const taken = answer as Taken;
		if (f.stopped) return done(false);
		if (taken.outcome === 'capped') return nextRound(t);
		t.last = taken;
		t.taken = taken;
		const shown = offsetsIn(f, taken.page);
		for (const reference of shown.keys()) t.measured.add(reference);
		if (t.probing !== undefined && shown.size === 0) t.blind.set(t.probing, (t.blind.get(t.probing) ?? 0) + 1);
		learn(f, t.progress, shown);
		const wasDeepest = t.wasDeepest as string;
		if (!t.measuring || shown.has(wasDeepest) || mirrorIndexOf(f.state.memory.mirror, wasDeepest) < 0) return nextRound(t);
		// A short page that stops above the deepest record's rank may be the bank's page cap, not records written
		// above it: judged first (a cap learned, the next round asks for pages the bank serves).
		const reaches = taken.page.start + taken.page.slots.length > (f.state.lag ?? 0) + t.deepest;
		if (taken.page.short && !reaches && !taken.endsList) return call(endsList(taken.page, 'check'), 'measureEnds');
		// The deepest record is not where it could be: more records were written above it than its page holds (or the
		// bank no longer lists it there). The list is read upward from it, found again by a search.
		return reopenAtDeepest(f, t, taken);
	},
	measureEnds: (f, t, answer) => (answer === true ? reopenAtDeepest(f, t, t.taken as Taken) : nextRound(t)),
};

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
