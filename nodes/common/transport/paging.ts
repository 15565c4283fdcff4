import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { BankContext, BankRequestOptions } from './request';
import { bankRequest } from './request';
import type { RouteName } from './routes';

export interface ListScope {
	returnAll: boolean;
	/** Used when returnAll is false. */
	limit: number;
}

/** Largest page the node asks for: large enough for few round trips, small enough for quick answers. */
export const MAX_PAGE_SIZE = 100;

/**
 * The page size to ask for next. Once the bank serves fewer records than asked (a cap the contract does not
 * name, or the list's end), the next pages are asked at the size it served: page P of size N then starts after
 * (P − 1) × N records whether the bank numbers its pages by the size asked or by the size served, so a bank that
 * caps after paging skips no record.
 */
export const nextPageSize = (asked: number, served: number): number => (served > 0 && served < asked ? served : asked);

function asRecords(data: unknown): IDataObject[] {
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

function stuck(context: BankContext, why: string, itemIndex?: number): NodeApiError {
	return new NodeApiError(
		context.getNode(),
		{ message: why },
		{
			message: `Stopped reading the list: ${why}`,
			description: 'The bank returned the same position twice; continuing would loop forever. Narrow the filters or use a Limit.',
			itemIndex,
		},
	);
}

/** Reads the records of a list route for `body`, as many as `scope` asks for, in as many requests as it takes. */
type ListReader = (
	context: BankContext,
	routeName: RouteName,
	body: IDataObject,
	scope: ListScope,
	options?: BankRequestOptions,
) => Promise<IDataObject[]>;

const wantedBy = (scope: ListScope) => (scope.returnAll ? Infinity : scope.limit);

/**
 * Lists that accept page/page_size (transactions, settlements, members): pages until a page shorter than an
 * earlier one, or empty. A first page shorter than asked may be the bank's cap (the contract names none), not the
 * list's end: the next page is asked at the size served, and only an empty or shorter one ends the list. That
 * costs one request for a list shorter than a page, and keeps Return All from stopping silently at a capped page.
 */
export const fetchPages: ListReader = async (context, routeName, body, scope, options = {}) => {
	const wanted = wantedBy(scope);
	let pageSize = Math.min(MAX_PAGE_SIZE, wanted);
	let longest = 0;
	const records: IDataObject[] = [];
	// A record that arrives while we page shifts the newest-first pages by one, so a record of the previous page
	// can show up again at the top of the next. Only that page's ids are kept: memory stays one page, not history.
	let previousIds = new Set<unknown>();
	let previousFirst: string | undefined;
	for (let page = 1; records.length < wanted; page++) {
		const batch = asRecords(await bankRequest(context, routeName, { ...body, page, page_size: pageSize }, options));
		if (batch.length === 0) break;
		const first = JSON.stringify(batch[0]);
		if (first === previousFirst) throw stuck(context, `page ${page} repeats page ${page - 1}`, options.itemIndex);
		previousFirst = first;
		const ids = new Set<unknown>();
		for (const record of batch) {
			if (records.length >= wanted) break;
			if (record.id !== undefined) {
				if (previousIds.has(record.id)) continue;
				ids.add(record.id);
			}
			records.push(record);
		}
		previousIds = ids;
		if (batch.length < pageSize && batch.length < longest) break;
		longest = Math.max(longest, batch.length);
		pageSize = nextPageSize(pageSize, batch.length);
	}
	return records;
};

/**
 * Lists that page by cursor (account summaries, collections, customer accounts): the next request starts
 * after the last record's created_at (and id, when records carry one, so equal timestamps are not skipped).
 */
export const fetchByCursor: ListReader = async (context, routeName, body, scope, options = {}) => {
	const wanted = wantedBy(scope);
	const records: IDataObject[] = [];
	let cursor: { cursor_created_at: string; cursor_id?: string } | undefined;
	while (records.length < wanted) {
		const limit = Math.min(MAX_PAGE_SIZE, wanted - records.length);
		const batch = asRecords(await bankRequest(context, routeName, { ...body, limit, ...cursor }, options));
		records.push(...batch.slice(0, wanted - records.length));
		if (batch.length < limit) break;
		const last = batch[batch.length - 1];
		if (typeof last.created_at !== 'string') {
			throw stuck(context, 'the records carry no created_at to continue from', options.itemIndex);
		}
		const next = {
			cursor_created_at: last.created_at,
			...(typeof last.id === 'string' ? { cursor_id: last.id } : {}),
		};
		if (cursor && cursor.cursor_created_at === next.cursor_created_at && cursor.cursor_id === next.cursor_id) {
			throw stuck(context, `the cursor did not advance past ${next.cursor_created_at}`, options.itemIndex);
		}
		cursor = next;
	}
	return records;
};
