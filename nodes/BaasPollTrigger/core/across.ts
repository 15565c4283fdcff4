/**
 * Reading across page boundaries, for the follower (follow.ts): pages read one after the other are taken as one
 * page only when what must not have moved between the reads did not (the place, a record that opens a page, no
 * record shown twice). Pure: it reads by yielding.
 */
import type { ListFollower, Taken } from './follow';
import type { Slot } from './memory';
import { firstValid, isValid } from './memory';
import { showsAgain } from './pages';
import type { Core, Need, Page } from './types';
import type { Window } from './windows';

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
export function* takeAcross(f: ListFollower, window: Window): Core<Taken> {
	const lag = f.state.lag ?? 0;
	const size = window.size;
	const costOf = f.options.costOf;
	const owedFor = (slots: Slot[]) => slots.reduce((n, slot) => n + (costOf !== undefined && isValid(slot) && !f.state.memory.seen.has(slot.reference) ? costOf(slot) : 0), 0);
	// The worst a page of records may cost to hand on (a look-up each).
	const worst = costOf === undefined ? 0 : size;
	const most = f.placed ? MOST_PAGES_ABOVE : 1;
	// Read upward from the page holding the rank right above the place: every rank between it and the place's page is a
	// remembered entry. (Counted from the place's page by the entries above the anchor instead, it was a page too high
	// when the page left room below the anchor, and a record between the two was taken for a remembered entry.)
	const pages: Page[] = [];
	let owed = 0;
	for (let p = Math.max(1, Math.min(window.page - 1, Math.floor((lag - 1) / size) + 1)); p >= 1 && pages.length < most; p--) {
		// Another page only while the poll leaves it, the check after it, and the look-ups of all of them.
		if (pages.length > 0 && f.options.requestsLeft() < 2 + owed + worst) break;
		const read = yield* f.read({ page: p, size }, undefined, 2);
		pages.unshift(read);
		owed += owedFor(read.slots);
		if (read.short) break;
	}
	const page = yield* f.read(window);
	const head = firstValid(f.state.memory);
	const at = head === undefined || f.state.lag === null ? -1 : lag + head.index - page.start;
	// The place where it stood before the first of the reads: nothing was written above it in between.
	if (pages.some((read) => read.short) || head === undefined || at < 0 || page.slots[at]?.reference !== head.reference) return yield* f.take(window, page);
	const nearest = pages[pages.length - 1];
	const between = remembered(page.start - (nearest.start + nearest.slots.length));
	return yield* f.take({ page: 1, size }, { window, start: pages[0].start, slots: [...pages.flatMap((read) => read.slots), ...between, ...page.slots], short: page.short });
}

/** `count` entries the trigger handled that hold no record, taken as it remembers them rather than read again. */
export const remembered = (count: number): Slot[] => Array.from({ length: count }, () => ({}));

/** Whether the list still ends at rank `end` (one request): records are only ever written, so nothing moved above. */
export function* endStillAt(f: ListFollower, end: number, size: number, need?: Need): Core<boolean> {
	const again = yield* f.read({ page: Math.floor(end / size) + 1, size }, need);
	return again.slots.length === end % size;
}

/**
 * `page` and the page after it as one page, or undefined: when the poll has no request left, the bank caps its
 * pages, or a record of `page` shows again in the next (records written above moved the list between the reads).
 */
export function* withNextPage(f: ListFollower, page: Page, need: Need | undefined): Core<Page | undefined> {
	if (page.short || f.options.requestsLeft() < 1) return undefined;
	const next = yield* f.read({ page: page.window.page + 1, size: page.window.size }, need);
	const endsList = next.short && (yield* f.endsList(next, need));
	if (next.short && !endsList) return undefined;
	if (showsAgain(page, next)) return undefined;
	return { window: page.window, start: page.start, slots: [...page.slots, ...next.slots], short: endsList };
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
export function* withPageAbove(f: ListFollower, page: Page, need: Need | undefined): Core<Page | undefined> {
	const size = page.window.size;
	const at = page.slots.findIndex((slot) => slot.reference !== undefined);
	if (at < 0 && !page.short) return undefined;
	const above: Slot[] = [];
	let start = page.start;
	for (let p = page.window.page - 1; p >= 1 && !above.some(isValid); p--) {
		// This page and the check again: two requests, or none.
		if (f.options.requestsLeft() < 2) return undefined;
		const read = yield* f.read({ page: p, size }, need, 2);
		if (read.short) return undefined;
		above.unshift(...read.slots);
		start = read.start;
	}
	if (above.length === 0) return undefined;
	if (at >= 0) {
		const again = yield* f.read({ page: page.window.page + Math.floor(at / size), size }, need);
		if (again.slots[at % size]?.reference !== page.slots[at].reference) return undefined;
	} else if (!(yield* endStillAt(f, page.start + page.slots.length, size, need))) return undefined;
	return { window: page.window, start, slots: [...above, ...page.slots], short: page.short };
}
