/**
 * The task `take` (steps.ts): reads one page (or takes one already read) and hands on what it places. A page read to
 * find or move the place updates it; a page read to check what lies behind the place (`checking`) does not: where
 * the place stands is then what is being checked.
 */
import type { ListFollower, Taken } from './follow';
import type { TakeFrame } from './frames';
import { endsList, withNextPage, withPageAbove } from './frames';
import type { Reading } from './memory';
import { firstValid, historyFloor, readAgainst, takeIn } from './memory';
import { standsOnHistory } from './search';
import type { Steps } from './steps';
import { call, done, go, handOn, needFor, read } from './steps';
import type { Need, Page } from './types';

/** How `page` reads against the memory (`reachesEnd`: the page ends the list). */
function readAs(f: ListFollower, page: Page, reachesEnd: boolean): Reading {
	const { state } = f;
	return readAgainst(state.memory, page.slots, reachesEnd, historyFloor(state), state.paging.asWritten === true && f.options.gainsByStatus !== true);
}

/** A page read for the check is the check's to pay for (the poll serves checks after every list's place). */
const checkNeed = (t: TakeFrame): Need | undefined => (t.checking ? 'check' : undefined);

/** `page`, joined with the page above or below it (read when nothing moved between), judged once more, as one. */
function joined(t: TakeFrame, page: Page) {
	t.page = page;
	t.extend = false;
	t.endsKnown = undefined;
	return go('judge');
}

/**
 * Whether the records `page` would hand on are placed only by records handled but no longer mirrored, which say
 * nothing of where the place is. Outside the check such records lie above the place (left there when it moved down
 * past records written late: ListFollower.reopen), and what lies between them and the place is unread: records
 * written late there are older than these. In the check, a record stamped after the place's own cannot lie behind it
 * in a list ordered by created_at: records written since pushed the page above the place. (Records handled below the
 * deepest mirrored one still place what the check finds between them.)
 */
function placedOnlyAboveThePlace(f: ListFollower, t: TakeFrame, reading: Reading, page: Page): boolean {
	const { memory, paging } = f.state;
	const head = firstValid(memory);
	if (reading.anchor !== 'handled' || reading.mirrored.length > 0 || reading.deliver.length === 0 || head === undefined) return false;
	if (!t.checking) return true;
	const headMs = memory.seen.get(head.reference);
	if (!f.options.ordered || paging.asWritten === true || headMs === undefined) return false;
	return reading.deliver.some((position) => (page.slots[position].createdMs as number) > headMs);
}

const taken = (outcome: Taken['outcome'], page: Page, endsList: boolean): Taken => ({ outcome, page, endsList });

export const takeSteps: Steps<TakeFrame> = {
	start: (f, t) => (t.page === undefined ? read(t.window, needFor(f, checkNeed(t)), 'read') : go('judge')),
	read: (_f, t, answer) => {
		t.page = answer as Page;
		return go('judge');
	},
	// How the page reads against the memory; whether a short page ends the list, when anything depends on it.
	judge: (f, t) => {
		const page = t.page as Page;
		const reading = readAs(f, page, false);
		if (t.endsKnown !== undefined) t.judged = { reading: t.endsKnown ? readAs(f, page, true) : reading, endsList: t.endsKnown };
		else t.judged = { reading, endsList: false };
		if (t.endsKnown !== undefined || !page.short || !(reading.anchor === 'none' || reading.unplacedBelow || reading.besideEnd === true)) return go('judged');
		return call(endsList(page, needFor(f, checkNeed(t))), 'ends');
	},
	ends: (f, t, answer) => {
		const page = t.page as Page;
		const { reading } = t.judged as NonNullable<TakeFrame['judged']>;
		const ends = answer === true;
		if (!ends && reading.anchor === 'none') return done(taken('capped', page, false));
		t.judged = { reading: ends ? readAs(f, page, true) : reading, endsList: ends };
		return go('judged');
	},
	judged: (f, t) => {
		const { reading } = t.judged as NonNullable<TakeFrame['judged']>;
		// Placed only against handled records, or when it hands something on: an empty page past the list's end, or a
		// page of history, says only where not to look. But for history under entries with no record, on which the
		// search found news above: the trigger stands on that history record, saved, and what lies above it is read
		// upward like any backlog, at the next poll if not in this one (standsOnHistory).
		t.boundary = standsOnHistory(f.state, t.page as Page, reading);
		// History or the list's end opens the page, or lies under malformed entries only (pages of one record, or a
		// boundary right above it): what lies just above is read with it, when nothing moved in between.
		const above = (reading.anchor === 'floor' || reading.anchor === 'end') && reading.deliver.length === 0 && t.boundary === undefined;
		return t.extend && above ? call(withPageAbove(t.page as Page, checkNeed(t)), 'above') : go('unjoined');
	},
	above: (_f, t, answer) => (answer !== undefined ? joined(t, answer as Page) : go('unjoined')),
	unjoined: (f, t) => {
		const { reading, endsList } = t.judged as NonNullable<TakeFrame['judged']>;
		const page = t.page as Page;
		if (reading.anchor === 'none' || (reading.anchor !== 'handled' && reading.deliver.length === 0 && t.boundary === undefined)) return done(taken('unplaced', page, endsList));
		if (placedOnlyAboveThePlace(f, t, reading, page)) return done(taken('unplaced', page, endsList));
		// New records below handled ones run on to the page's end: the next page may show a handled record below
		// them, which places them (read together as one page when nothing moved between the two reads).
		return reading.unplacedBelow && !endsList && t.extend ? call(withNextPage(page, checkNeed(t)), 'below') : go('reading');
	},
	below: (_f, t, answer) => (answer !== undefined ? joined(t, answer as Page) : go('reading')),
	// Takes in a page read and placed: hands on what it may, moves the place, or holds it for the check.
	reading: (f, t) => {
		const { state } = f;
		const page = t.page as Page;
		const { reading, endsList } = t.judged as NonNullable<TakeFrame['judged']>;
		if (reading.unplacedBelow && !endsList) {
			// New records below handled ones run on past the page: older than everything new above them, they come
			// first. The place moves below them, past the mirror's end, and the list is read upward from there
			// (handled records are skipped). (Reopening at the handled record after the page's deepest one instead saved
			// 5 polls of the model check's 2,441 and 11 of the sweep's 6,864; no test or history needed it.)
			f.reopen(state.memory.mirror.length, page.start + page.slots.length, false);
			return done(taken('placed', page, endsList));
		}
		const first = firstValid(state.memory);
		t.expectedHead = state.lag === null || first === undefined ? null : state.lag + first.index;
		t.oldHead = first?.reference;
		if (!t.checking && !f.handsOn && first !== undefined && reading.deliver.length > 0 && (f.options.requestsLeft() > 0 || state.checkStarved !== true)) {
			// Records behind the place come first: this page only places the trigger until the check has ended. The
			// check runs next (the tasks step and followList), then hands it on (release). A poll with no request left
			// for the check holds it too, unless the last poll that held one gave the check none either (checkStarved):
			// the place may have cost this poll's requests once, but a budget that never leaves the check one would
			// hold new records MAX_HELD_POLLS polls for nothing.
			const { headPosition } = takeIn(state.memory, page.slots, reading, [], page.start === 0);
			if (!f.place(page, headPosition, t.expectedHead, t.oldHead, endsList)) return done(taken('unplaced', page, endsList));
			f.hold.page = { window: t.window, page, extend: t.extend };
			state.heldPolls = f.hold.before + 1; // until the check has ended and all of it is handed on
			state.checkStarved = true; // until the check reads a page (run.ts)
			return done(taken('placed', page, endsList));
		}
		// Handed on by the poll, oldest first: as many as it could (a transfer's status look-up takes a request). Those
		// not handed on are not taken in: a later page shows them again. A page read for the check hands on only what
		// lies behind the place: above it lies the backlog, newer than anything the check may still find (the climb
		// hands it on once the check has ended).
		const expectedHead = t.expectedHead;
		t.deliver = t.checking && expectedHead !== null ? reading.deliver.filter((position) => page.start + position > expectedHead) : reading.deliver;
		if (t.deliver.length === 0) return go('handed');
		return handOn({ kind: 'handOn', slots: t.deliver.map((position) => page.slots[position]) }, 'handed');
	},
	handed: (f, t, answer) => {
		const { state } = f;
		const page = t.page as Page;
		const { reading, endsList } = t.judged as NonNullable<TakeFrame['judged']>;
		const deliver = t.deliver ?? [];
		const count = deliver.length === 0 ? 0 : (answer as number);
		const handled = deliver.slice(0, count);
		const { headPosition } = takeIn(state.memory, page.slots, reading, handled, page.start === 0, t.boundary);
		const placed = !t.checking || headPosition !== undefined ? f.place(page, headPosition, t.expectedHead ?? null, t.oldHead, endsList) : true;
		if (count < deliver.length) f.enter('stopped');
		// A page that handed nothing on and showed no mirrored record (only records remembered from above the place,
		// pushed into it by records written since) did not place the trigger: the place is looked for below it.
		if (!placed && handled.length === 0) return done(taken('unplaced', page, endsList));
		return done(taken('placed', page, endsList));
	},
};
