/**
 * Reading pages in the core: what every page read tells of how the bank pages its list (notePage), and whether a
 * short page is the list's end or a bank that serves fewer records a page than asked (the contract names no
 * maximum): the task `endsList`. Pure.
 */
import type { ListFollower } from './follow';
import type { EndsListFrame } from './frames';
import { isValid } from './memory';
import type { Steps } from './steps';
import { done, read } from './steps';
import type { FollowOptions, Page, Paging } from './types';

/** How long a cap learned from the bank is kept before full pages are asked for again. */
export const CAP_HOLD_MS = 24 * 3_600_000;

/** What a page read tells of the bank's paging: how many records it served, and whether it lists as it wrote. */
export function notePage(paging: Paging, options: FollowOptions, page: Page): void {
	if (showsWriteOrder(page)) paging.asWritten = true;
	paging.served = Math.max(paging.served, page.slots.length);
	options.bank.served = Math.max(options.bank.served, page.slots.length);
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

/** The bank caps its pages at `served` records (for CAP_HOLD_MS): the short page was not the end. */
function learnCap(f: ListFollower, served: number): false {
	f.state.paging.cap = served;
	f.state.paging.capUntilMs = f.options.nowMs + CAP_HOLD_MS;
	return false;
}

/**
 * Whether a short page is where the list ends. It is when the bank once served a page this long; otherwise the
 * bank may serve fewer records per page than asked. Below the first page, the first page is read at the same size:
 * full means the end, short means a cap. A short first page: the next page is read, empty (or holding the short
 * page's own records, pushed down by new ones) means the end, other records a cap. A cap is learned (and given up
 * after CAP_HOLD_MS).
 */
export const endsListSteps: Steps<EndsListFrame> = {
	start: (f, { page, need }) => {
		if (!page.short) return done(false);
		const served = page.slots.length;
		const { paging } = f.state;
		// An empty page is the end (a bank serves at least one record a page); so is any page shorter than one the
		// bank served before.
		if (served === 0 || page.window.size <= Math.max(paging.served, f.options.bank.served)) return done(true);
		// Below the first page the list holds more records than a page asks: the first page, asked the same size,
		// is full unless the bank caps its pages. (Counting pages of `served` from here would place the next page
		// far above this one when the short page was the end.)
		if (page.start > 0) return read({ page: 1, size: page.window.size }, need, 'top');
		// The first page was short: a bank serving c records a page counts pages of c, so the next page starts right
		// after this one.
		return read({ page: page.window.page + 1, size: served }, need, 'next');
	},
	top: (f, _frame, answer) => {
		const top = answer as Page;
		return !top.short || top.slots.length === 0 ? done(true) : done(learnCap(f, top.slots.length));
	},
	next: (f, { page, need }, answer) => {
		const next = answer as Page;
		if (next.slots.length === 0) return done(true);
		// Only records of the short page again in the next: records written above since pushed them down, and the
		// short page was the end when it was read, or the bank serves that many a page and such records pushed the
		// list along. The first page asked one record longer tells (a bank that serves it serves more than the short
		// page held). Taken for the end, a list the bank serves one record a page was taken for one record long;
		// taken for a cap, bursts written between the reads learned a cap as small as the page, for a day
		// (docs/polling.md).
		if (onlyShownAgain(page, next)) return read({ page: 1, size: page.slots.length + 1 }, need, 'longer');
		// Any other record below them: the bank caps its pages.
		return done(learnCap(f, page.slots.length));
	},
	longer: (f, { page }, answer) => ((answer as Page).slots.length > page.slots.length ? done(true) : done(learnCap(f, page.slots.length))),
};
