/**
 * Reads one page of a list of the bank (a stream's transactions, or the failed transfers) by page number: the
 * contract's paging for both list variants, and the only one that can place a page anywhere in the list
 * (core/windows.ts). Records' `id` fields, when a bank sends them, are not needed: records are told apart by
 * reference_number. The only place of the Poll Trigger that sends list requests; the core decides which page.
 */
import type { IDataObject } from 'n8n-workflow';

import type { bankRequest } from '../common/transport/request';
import type { ApiVariant } from '../common/transport/routes';
import type { Budget } from './budget';
import { NO_REQUEST_LEFT } from './budget';
import type { Slot } from './core/memory';
import type { Page } from './core/types';
import type { Window } from './core/windows';
import { startOf } from './core/windows';
import { stampOf } from './events';

export interface ListSpec {
	/** Filters of the list (stream, status, date window, account). */
	filters: IDataObject;
	variant: ApiVariant;
}

export interface ReadRun {
	request: typeof bankRequest;
	context: Parameters<typeof bankRequest>[0];
	budget: Budget;
	/** Set once any request of the poll got an answer. */
	progressed: boolean;
	/** Malformed entries met this poll (null, or without reference_number or a valid created_at). */
	malformed: number;
}

function slotOf(entry: unknown): Slot {
	const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as IDataObject) : undefined;
	const stamp = record === undefined ? undefined : stampOf(record);
	if (stamp !== undefined) return { ...stamp, record };
	const reference = record?.reference_number;
	return typeof reference === 'string' && reference !== '' ? { unstamped: reference } : {};
}

/**
 * Reads the page `window` of the list; the request is counted against the poll's budget, and undefined means the
 * poll may make no more (nothing was asked).
 */
export async function readListPage(run: ReadRun, spec: ListSpec, window: Window): Promise<Page | undefined> {
	const timeoutMs = run.budget.take();
	if (timeoutMs === NO_REQUEST_LEFT) return undefined;
	const batch = await run.request<unknown[]>(
		run.context,
		'fetchTransactions',
		{ filters: spec.filters, page: window.page, page_size: window.size, limit: window.size },
		{ variant: spec.variant, attempts: 1, timeoutMs },
	);
	run.progressed = true;
	const slots = (Array.isArray(batch) ? batch : []).slice(0, window.size).map(slotOf);
	run.malformed += slots.filter((slot) => slot.reference === undefined).length;
	return { window, start: startOf(window), slots, short: slots.length < window.size };
}
