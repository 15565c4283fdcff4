/**
 * Reading across page boundaries, for the follower (follow.ts): pages read one after the other are taken as one
 * page only when what must not have moved between the reads did not (the place, a record that opens a page, no
 * record shown twice). Tasks (steps.ts): they read by asking the poll.
 */
import type { EndStillAtFrame, TakeAcrossFrame, WithNextPageFrame, WithPageAboveFrame } from './frames';
import { endsList, endStillAt, take } from './frames';
import type { Slot } from './memory';
import { firstValid, isValid } from './memory';
import { showsAgain } from './pages';
import type { Steps } from './steps';
import { call, done, go, needFor, read } from './steps';
import type { Page } from './types';

/** Pages above the place one climbing step reads at most before the check that nothing moved. */
const MOST_PAGES_ABOVE = 10;

/**
 * When every page size up to the cap puts the place at the top of its page (the cap divides its rank), no page
 * holds it with a record above: the page holding the rank just above the place is read, then the place's page. If
 * the place is still at its rank, nothing was written above it between the reads, and the pages are read as one.
 * Between them lie only entries the trigger handled that hold no record (malformed: the place stands on the newest
 * handled record, entries below the place's top): they are taken as the trigger remembers them, not read again, so
 * this costs two requests however many there are (a bank serving one record a page would otherwise need one more
 * for each, beyond what a poll may have). Once the place is known in the poll (climbing), more pages above are read
 * first, upward, while the poll leaves the check and the look-ups of what they hold: one check holds for all of them
 * (at one record a page, a page and its check for each record took two requests a record).
 */
export const takeAcrossSteps: Steps<TakeAcrossFrame> = {
	start: (f, t) => {
		t.lag = f.state.lag ?? 0;
		t.most = f.placed ? MOST_PAGES_ABOVE : 1;
		// Read upward from the page holding the rank right above the place: every rank between it and the place's page
		// is a remembered entry. (Counted from the place's page by the entries above the anchor instead, it was a page
		// too high when the page left room below the anchor, and a record between the two was taken for a remembered
		// entry.)
		t.p = Math.max(1, Math.min(t.window.page - 1, Math.floor((t.lag - 1) / t.window.size) + 1));
		return go('above');
	},
	above: (f, t) => {
		if (t.p < 1 || t.pages.length >= t.most) return go('place');
		// Another page only while the poll leaves it, the check after it, and the look-ups of all of them (the worst a
		// page of records may cost to hand on: a look-up each).
		const worst = f.options.costOf === undefined ? 0 : t.window.size;
		if (t.pages.length > 0 && f.options.requestsLeft() < 2 + t.owed + worst) return go('place');
		return read({ page: t.p, size: t.window.size }, needFor(f), 'aboveRead', 2);
	},
	aboveRead: (f, t, answer) => {
		const page = answer as Page;
		const costOf = f.options.costOf;
		t.pages.unshift(page);
		t.owed += page.slots.reduce((n, slot) => n + (costOf !== undefined && isValid(slot) && !f.state.memory.seen.has(slot.reference) ? costOf(slot) : 0), 0);
		if (page.short) return go('place');
		t.p--;
		return go('above');
	},
	place: (f, t) => read(t.window, needFor(f), 'placeRead'),
	placeRead: (f, t, answer) => {
		const page = answer as Page;
		const { window, pages, lag } = t;
		const head = firstValid(f.state.memory);
		const at = head === undefined || f.state.lag === null ? -1 : lag + head.index - page.start;
		// The place where it stood before the first of the reads: nothing was written above it in between.
		if (pages.some((read) => read.short) || head === undefined || at < 0 || page.slots[at]?.reference !== head.reference) return call(take(window, page), 'taken');
		const nearest = pages[pages.length - 1];
		const between = remembered(page.start - (nearest.start + nearest.slots.length));
		const joined = { window, start: pages[0].start, slots: [...pages.flatMap((read) => read.slots), ...between, ...page.slots], short: page.short };
		return call(take({ page: 1, size: window.size }, joined), 'taken');
	},
	taken: (_f, _t, answer) => done(answer),
};

/** `count` entries the trigger handled that hold no record, taken as it remembers them rather than read again. */
export const remembered = (count: number): Slot[] => Array.from({ length: count }, () => ({}));

/** Whether the list still ends at rank `end` (one request): records are only ever written, so nothing moved above. */
export const endStillAtSteps: Steps<EndStillAtFrame> = {
	start: (f, t) => read({ page: Math.floor(t.end / t.size) + 1, size: t.size }, needFor(f, t.need), 'read'),
	read: (_f, t, answer) => done((answer as Page).slots.length === t.end % t.size),
};

/**
 * `page` and the page after it as one page, or undefined: when the poll has no request left, the bank caps its
 * pages, or a record of `page` shows again in the next (records written above moved the list between the reads).
 */
export const withNextPageSteps: Steps<WithNextPageFrame> = {
	start: (f, { page, need }) => {
		if (page.short || f.options.requestsLeft() < 1) return done(undefined);
		return read({ page: page.window.page + 1, size: page.window.size }, needFor(f, need), 'next');
	},
	next: (f, t, answer) => {
		const next = answer as Page;
		t.next = next;
		return next.short ? call(endsList(next, needFor(f, t.need)), 'ends') : joinNext(t, false);
	},
	ends: (_f, t, answer) => (answer === true ? joinNext(t, true) : done(undefined)),
};

function joinNext({ page, next }: WithNextPageFrame, endsList: boolean) {
	if (next === undefined || showsAgain(page, next)) return done(undefined);
	return done({ window: page.window, start: page.start, slots: [...page.slots, ...next.slots], short: endsList });
}

/**
 * `page` with the pages above it, read first, and a check after them that nothing moved: undefined when anything
 * did. The pages above are read upward until one shows a record: one showing malformed entries only places nothing,
 * and a boundary (history, or the list's end) under a run of them is placed only by the record above the run.
 * Nothing moved when `page`'s first reference stands where it stood before the first of the reads (records are
 * written above, so one check after all of them holds for each); a page with no reference that ends the list: when
 * the list still ends there. `page` may be joined from two reads already (a page of one record whose entry is
 * malformed and the history, or the end, below it): its first reference is then below its own window.
 */
export const withPageAboveSteps: Steps<WithPageAboveFrame> = {
	start: (_f, { page }) => (firstReference(page) < 0 && !page.short ? done(undefined) : go('up')),
	up: (f, t) => {
		if (t.p < 1 || t.above.some(isValid)) return go('verify');
		// This page and the check again: two requests, or none.
		if (f.options.requestsLeft() < 2) return done(undefined);
		return read({ page: t.p, size: t.page.window.size }, needFor(f, t.need), 'upRead', 2);
	},
	upRead: (_f, t, answer) => {
		const read = answer as Page;
		if (read.short) return done(undefined);
		t.above.unshift(...read.slots);
		t.start = read.start;
		t.p--;
		return go('up');
	},
	verify: (f, t) => {
		const { page } = t;
		const size = page.window.size;
		const at = firstReference(page);
		if (t.above.length === 0) return done(undefined);
		if (at >= 0) return read({ page: page.window.page + Math.floor(at / size), size }, needFor(f, t.need), 'again');
		return call(endStillAt(page.start + page.slots.length, size, t.need), 'endHolds');
	},
	again: (_f, t, answer) => {
		const at = firstReference(t.page);
		return (answer as Page).slots[at % t.page.window.size]?.reference === t.page.slots[at].reference ? joinAbove(t) : done(undefined);
	},
	endHolds: (_f, t, answer) => (answer === true ? joinAbove(t) : done(undefined)),
};

const firstReference = (page: Page) => page.slots.findIndex((slot) => slot.reference !== undefined);

const joinAbove = ({ page, above, start }: WithPageAboveFrame) => done({ window: page.window, start, slots: [...above, ...page.slots], short: page.short });
