/**
 * Paging shared by every list, under the bank's list policy (sandbox/README.md, "List shapes").
 * Order: 'created' lists newest created_at first, ties by id descending (records are kept ascending by
 * (created_at, id)); 'recorded' lists newest written first.
 * Cursor mode (cursor_created_at present): the items after the cursor in list order — created before it, or
 * at its instant with a smaller id when cursor_id is honoured (without it, the cursor's instant is skipped) —
 * `limit` of them. Page mode: `page` (default 1) of `page_size` (default: `limit` if given, else 20).
 * A page cap bounds either size, and page N starts at (N - 1) × the capped size.
 */
import { parseDateTime } from '../data/time';
import type { ListOrder, PageOffsets } from '../types';
import type { Stamped } from './sorted';

export interface PageQuery {
	page?: number | null;
	page_size?: number | null;
	limit?: number | null;
	cursor_created_at?: string | null;
	cursor_id?: string | null;
}

export interface ListPolicy {
	order: ListOrder;
	/** The most records a page holds, whatever the request asks; null: no cap. */
	pageCap: number | null;
	/** Where page P starts under a cap: after (P − 1) × the size served, or × the size asked. */
	pageOffsets: PageOffsets;
	/** cursor_id is honoured (the items carry the id it names). */
	cursorIds: boolean;
}

export const DEFAULT_PAGE_SIZE = 20;

interface Cursor {
	ms: number;
	id?: string;
}

function cursorOf(q: PageQuery, policy: ListPolicy): Cursor | undefined {
	if (!q.cursor_created_at) return undefined;
	return { ms: parseDateTime(q.cursor_created_at) as number, id: policy.cursorIds ? (q.cursor_id ?? undefined) : undefined };
}

const askedOf = (q: PageQuery, cursor: Cursor | undefined) => (cursor ? q.limit : (q.page_size ?? q.limit)) ?? DEFAULT_PAGE_SIZE;

/** The records one page holds: what the request asks, within the cap. */
function sizeOf(q: PageQuery, policy: ListPolicy, cursor: Cursor | undefined): number {
	const asked = askedOf(q, cursor);
	return policy.pageCap === null ? asked : Math.min(asked, policy.pageCap);
}

/** The records before numbered page `q.page`. */
function offsetOf(q: PageQuery, policy: ListPolicy): number {
	return ((q.page ?? 1) - 1) * (policy.pageOffsets === 'asked' ? askedOf(q, undefined) : sizeOf(q, policy, undefined));
}

/** True when `item` comes strictly after the cursor. Without an id, the cursor's own instant is skipped. */
function afterCursor(item: Stamped, cursor: Cursor): boolean {
	if (item.createdAtMs !== cursor.ms) return item.createdAtMs < cursor.ms;
	return cursor.id !== undefined && item.id < cursor.id;
}

/** The first index of `items` at which `holds` is true, for a predicate that is false ... false, true ... true. */
function firstIndexWhere<T>(items: T[], holds: (item: T) => boolean): number {
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (holds(items[mid])) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}

/** A cursor page of a list already in list order (accounts: they have no page numbers). */
export function cursorSlice<T extends Stamped>(newestFirst: T[], q: PageQuery, policy: ListPolicy): T[] {
	const cursor = cursorOf(q, policy);
	const size = sizeOf(q, policy, cursor);
	const first = cursor ? firstIndexWhere(newestFirst, (item) => afterCursor(item, cursor)) : 0;
	return newestFirst.slice(first, first + size);
}

/** A numbered page of a list already in list order (members: they have no cursor). */
export function pageSlice<T>(items: T[], q: PageQuery, policy: ListPolicy): T[] {
	const start = offsetOf(q, policy);
	return items.slice(start, start + sizeOf(q, policy, undefined));
}

/** A record list kept two ways: ascending by (created_at, id), and in the order the bank wrote the records. */
export interface Ledger<T> {
	ascending: T[];
	written: T[];
}

/**
 * The page `q` asks for of the records that pass `keep`, without building the whole filtered list: in created
 * order a cursor is found by binary search and only the page's items are collected (what makes a 100,000-record
 * Return All linear rather than quadratic); a deep page still walks the matches before it.
 */
export function newestFirstPage<T extends Stamped>(records: Ledger<T>, keep: (item: T) => boolean, q: PageQuery, policy: ListPolicy): T[] {
	const cursor = cursorOf(q, policy);
	const size = sizeOf(q, policy, cursor);
	const recorded = policy.order === 'recorded';
	const items = recorded ? records.written : records.ascending;
	// Ascending, afterCursor is true ... true, false ... false: in created order, the items after the cursor end there.
	const end = cursor && !recorded ? firstIndexWhere(items, (item) => !afterCursor(item, cursor)) : items.length;
	let skip = cursor ? 0 : offsetOf(q, policy);
	const out: T[] = [];
	for (let i = end - 1; i >= 0 && out.length < size; i--) {
		const item = items[i];
		if (!keep(item) || (cursor && !afterCursor(item, cursor))) continue;
		if (skip > 0) skip--;
		else out.push(item);
	}
	return out;
}
