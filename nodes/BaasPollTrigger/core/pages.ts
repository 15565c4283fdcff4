/**
 * Reading pages in the core: a page is asked for by yielding (the poll reads it), and a short page is judged: the
 * list's end, or a bank that serves fewer records a page than asked (the contract names no maximum). Pure.
 */
import { isValid } from './memory';
import type { Core, FollowOptions, Need, Page, Paging } from './types';
import type { Window } from './windows';

/** How long a cap learned from the bank is kept before full pages are asked for again. */
export const CAP_HOLD_MS = 24 * 3_600_000;

/** Asks the poll for one page; notes how many records the bank served. */
export function* readPage(paging: Paging, options: FollowOptions, window: Window, need: Need, atLeast?: number): Core<Page> {
	const page = (yield { kind: 'read', window, need, ...(atLeast !== undefined ? { atLeast } : {}) }) as Page;
	if (showsWriteOrder(page)) paging.asWritten = true;
	paging.served = Math.max(paging.served, page.slots.length);
	options.bank.served = Math.max(options.bank.served, page.slots.length);
	return page;
}

/** Whether `page` lists a record under one stamped before it (which a list ordered by created_at never does). */
function showsWriteOrder(page: Page): boolean {
	const stamps = page.slots.filter(isValid).map((slot) => slot.createdMs);
	return stamps.some((ms, i) => i > 0 && ms > stamps[i - 1]);
}

/** The references a page shows (its malformed entries have none). */
const referencesIn = (page: Page) => new Set(page.slots.map((slot) => slot.reference).filter((reference) => reference !== undefined));

/** Whether a record of `page` shows again in `next`, the page after it: records written above moved the list between the reads. */
export function showsAgain(page: Page, next: Page): boolean {
	const shown = referencesIn(page);
	return next.slots.some((slot) => slot.reference !== undefined && shown.has(slot.reference));
}

/**
 * Whether every entry of `next` (the page after `page`) is one `page` showed: pushed down by records written above.
 * A malformed entry has no reference to match: it counts as shown while `page` showed as many, and only beside a
 * record shown again. Malformed entries alone prove nothing moved: a bank serving one entry a page whose first two
 * are malformed looks the same, and taking that for the list's end would leave every record below it unread for
 * good; taking it for a cap costs smaller pages at worst.
 */
function onlyShownAgain(page: Page, next: Page): boolean {
	const shown = referencesIn(page);
	if (!next.slots.some((slot) => slot.reference !== undefined && shown.has(slot.reference))) return false;
	let malformed = page.slots.filter((slot) => slot.reference === undefined).length;
	return next.slots.every((slot) => (slot.reference === undefined ? malformed-- > 0 : shown.has(slot.reference)));
}

/**
 * Whether a short page is where the list ends. It is when the bank once served a page this long; otherwise the
 * bank may serve fewer records per page than asked. Below the first page, the first page is read at the same size:
 * full means the end, short means a cap. A short first page: the next page is read, empty (or holding the short
 * page's own records, pushed down by new ones) means the end, other records a cap. A cap is learned (and given up
 * after CAP_HOLD_MS).
 */
export function* endsList(paging: Paging, options: FollowOptions, page: Page, need: Need): Core<boolean> {
	if (!page.short) return false;
	const served = page.slots.length;
	// An empty page is the end (a bank serves at least one record a page); so is any page shorter than one the
	// bank served before.
	if (served === 0 || page.window.size <= Math.max(paging.served, options.bank.served)) return true;
	if (page.start > 0) {
		// Below the first page the list holds more records than a page asks: the first page, asked the same size,
		// is full unless the bank caps its pages. (Counting pages of `served` from here would place the next page
		// far above this one when the short page was the end.)
		const top = yield* readPage(paging, options, { page: 1, size: page.window.size }, need);
		if (!top.short || top.slots.length === 0) return true;
		paging.cap = top.slots.length;
		paging.capUntilMs = options.nowMs + CAP_HOLD_MS;
		return false;
	}
	// The first page was short: a bank serving c records a page counts pages of c, so the next page starts right
	// after this one.
	const next = yield* readPage(paging, options, { page: page.window.page + 1, size: served }, need);
	if (next.slots.length === 0) return true;
	// Only records of the short page again in the next: records written above since pushed them down, and the short
	// page was the end when it was read, or the bank serves that many a page and such records pushed the list along.
	// The first page asked one record longer tells (a bank that serves it serves more than the short page held).
	// Taken for the end, a list the bank serves one record a page was taken for one record long; taken for a cap,
	// bursts written between the reads learned a cap as small as the page, for a day (docs/polling.md).
	if (onlyShownAgain(page, next)) {
		const longer = yield* readPage(paging, options, { page: 1, size: served + 1 }, need);
		if (longer.slots.length > served) return true;
	}
	// Any other record below them: the bank caps its pages.
	paging.cap = served;
	paging.capUntilMs = options.nowMs + CAP_HOLD_MS;
	return false;
}
