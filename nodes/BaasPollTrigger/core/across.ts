/**
 * Reading across page boundaries, for the follower (follow.ts): pages read one after the other are taken as one
 * page only when what must not have moved between the reads did not (the place, a record that opens a page, no
 * record shown twice). Pure: it reads by yielding.
 */
import type { ListFollower, Taken } from './follow';
import type { Slot } from './memory';
import { firstValid } from './memory';
import { showsAgain } from './pages';
import type { Core, Need, Page } from './types';
import type { Window } from './windows';

/**
 * When every page size up to the cap puts the place at the top of its page (the cap divides its rank), no page
 * holds it with a record above: the page holding the rank just above the place is read, then the place's page. If
 * the place is still at its rank, nothing was written above it between the two reads, and the two pages are read
 * as one. Between them lie only entries the trigger handled that hold no record (malformed: the place stands on the
 * newest handled record, `anchor` entries below the place's top): they are taken as the trigger remembers them, not
 * read again, so this costs two requests however many there are (a bank serving one record a page would otherwise
 * need one more for each, beyond what a poll may have).
 */
export function* takeAcross(f: ListFollower, window: Window, anchor: number): Core<Taken> {
	const pages = Math.min(window.page - 1, Math.ceil((anchor + 1) / window.size));
	const above = yield* f.read({ page: window.page - pages, size: window.size }, undefined, 2);
	const page = yield* f.read(window);
	const head = firstValid(f.state.memory);
	const at = head === undefined || f.state.lag === null ? -1 : f.state.lag + head.index - page.start;
	// The place where it stood before the first of the reads: nothing was written above it in between.
	if (above.short || head === undefined || at < 0 || page.slots[at]?.reference !== head.reference) return yield* f.take(window, page);
	const between: Slot[] = Array.from({ length: page.start - (above.start + above.slots.length) }, () => ({}));
	return yield* f.take({ page: 1, size: window.size }, { window, start: above.start, slots: [...above.slots, ...between, ...page.slots], short: page.short });
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
 * `page` with the page above it, read first, and `page`'s own window read again after it: undefined when anything
 * moved. Nothing moved when the window's first reference (malformed entries before it aside) stands where it stood.
 * A `page` joined from two reads keeps what lies below its own window (a page of one record whose entry is malformed
 * and the history below it: the record above places the pair).
 */
export function* withPageAbove(f: ListFollower, page: Page, need: Need | undefined): Core<Page | undefined> {
	const own = page.slots.slice(0, page.window.size);
	const at = own.findIndex((slot) => slot.reference !== undefined);
	if (page.window.page < 2 || at < 0 || f.options.requestsLeft() < 2) return undefined;
	const opening = own[at].reference;
	const above = yield* f.read({ page: page.window.page - 1, size: page.window.size }, need, 2);
	const again = yield* f.read(page.window, need);
	if (above.short || again.slots[at]?.reference !== opening) return undefined;
	return { window: page.window, start: above.start, slots: [...above.slots, ...again.slots, ...page.slots.slice(own.length)], short: page.slots.length > own.length ? page.short : again.short };
}
