/**
 * Reads one list of the bank (a stream's transactions, or the failed transfers) a page at a time, by page number:
 * the contract's paging for both list variants, and the only one that can place a page anywhere in the list
 * (windows.ts). Records' `id` fields, when a bank sends them, are not needed: records are told apart by
 * reference_number. The only place here that sends list requests.
 */
import type { IDataObject } from 'n8n-workflow';

import { bankRequest } from '../shared/transport/request';
import type { ApiVariant } from '../shared/transport/routes';
import type { Budget } from './budget';
import { OutOfBudget } from './budget';
import { stampOf } from './events';
import type { Slot } from './memory';
import type { Window } from './windows';
import { startOf } from './windows';

export interface ListSpec {
	/** Filters of the list (stream, status, date window, account). */
	filters: IDataObject;
	variant: ApiVariant;
}

/** What the trigger learned of how the bank pages this list. */
export interface Paging {
	/** The largest page to ask for: the trigger's page size, or less once the bank showed it serves no more. */
	cap: number;
	/** The most records the bank served in one page so far: a page shorter than that is the list's end. */
	served: number;
	/** When a learned cap is given up and full pages are asked for again (n8n's clock, ms). */
	capUntilMs?: number;
}

export interface Page {
	window: Window;
	start: number;
	slots: Slot[];
	/** Fewer records than asked. */
	short: boolean;
}

export interface ReadRun {
	request: typeof bankRequest;
	context: Parameters<typeof bankRequest>[0];
	budget: Budget;
	/** Set once any request of the poll got an answer. */
	progressed: boolean;
	/** Malformed entries met this poll (null, or without reference_number or a valid created_at). */
	malformed: number;
	/** The most records the bank served in one page of any list (its page size is the bank's, not a list's). */
	served: number;
}

function slotOf(entry: unknown): Slot {
	const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as IDataObject) : undefined;
	const stamp = record === undefined ? undefined : stampOf(record);
	return stamp === undefined ? {} : { ...stamp, record };
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
 * A malformed entry has no reference to match: it counts as shown while `page` showed as many.
 */
function onlyShownAgain(page: Page, next: Page): boolean {
	const shown = referencesIn(page);
	let malformed = page.slots.filter((slot) => slot.reference === undefined).length;
	return next.slots.every((slot) => (slot.reference === undefined ? malformed-- > 0 : shown.has(slot.reference)));
}

export class ListReader {
	constructor(
		private readonly run: ReadRun,
		private readonly spec: ListSpec,
		readonly paging: Paging,
	) {}

	get cap(): number {
		return this.paging.cap;
	}

	/** Requests this poll may still make. */
	get requestsLeft(): number {
		return this.run.budget.left;
	}

	/** Ends the poll's requests: what is left cannot make progress (the next poll goes on from here). */
	giveUp(): never {
		throw new OutOfBudget(this.run.context.getNode());
	}

	async read(window: Window): Promise<Page> {
		const timeoutMs = this.run.budget.take();
		const batch = await this.run.request<unknown[]>(
			this.run.context,
			'fetchTransactions',
			{ filters: this.spec.filters, page: window.page, page_size: window.size, limit: window.size },
			{ variant: this.spec.variant, attempts: 1, timeoutMs },
		);
		this.run.progressed = true;
		const slots = (Array.isArray(batch) ? batch : []).slice(0, window.size).map(slotOf);
		this.run.malformed += slots.filter((slot) => slot.reference === undefined).length;
		this.paging.served = Math.max(this.paging.served, slots.length);
		this.run.served = Math.max(this.run.served, slots.length);
		return { window, start: startOf(window), slots, short: slots.length < window.size };
	}

	/**
	 * Whether a short page is where the list ends. It is when the bank once served a page this long; otherwise the
	 * bank may serve fewer records per page than asked (the contract names no maximum). Below the first page, the
	 * first page is read at the same size: full means the end, short means a cap. A short first page: the next page
	 * is read, empty (or holding the short page's own records, pushed down by new ones) means the end, other records
	 * a cap. A cap is learned (and given up after `capHoldMs`).
	 */
	async endsList(page: Page, nowMs: number, capHoldMs: number): Promise<boolean> {
		if (!page.short) return false;
		const served = page.slots.length;
		// One record: a cap of one record a page cannot be told from the end while records land, and could not be
		// read by (every page would hold one record); it is taken for the end, which the next poll reads again.
		if (served < 2 || page.window.size <= Math.max(this.paging.served, this.run.served)) return true;
		if (page.start > 0) {
			// Below the first page the list holds more records than a page asks: the first page, asked the same size,
			// is full unless the bank caps its pages. (Counting pages of `served` from here would place the next page
			// far above this one when the short page was the end.)
			const top = await this.read({ page: 1, size: page.window.size });
			if (!top.short || top.slots.length < 2) return true;
			this.paging.cap = top.slots.length;
			this.paging.capUntilMs = nowMs + capHoldMs;
			return false;
		}
		// The first page was short: a bank serving c records a page counts pages of c, so the next page starts right
		// after this one.
		const next = await this.read({ page: page.window.page + 1, size: served });
		// Only records of the short page again in the next: records written above since pushed them down, and the
		// short page was the end when it was read. Any other record below them: the bank caps its pages.
		if (next.slots.length === 0 || onlyShownAgain(page, next)) return true;
		this.paging.cap = served;
		this.paging.capUntilMs = nowMs + capHoldMs;
		return false;
	}
}
