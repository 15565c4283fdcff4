/**
 * Paging shared by every list. Items arrive newest first, ordered by (created_at desc, id desc).
 * Cursor mode (cursor_created_at present): items strictly after the cursor, `limit` of them.
 * Page mode: `page` (default 1) of `page_size` (default: `limit` if given, else 20).
 */
import { parseDateTime } from '../data/time';
import type { Stamped } from './sorted';

export interface PageQuery {
	page?: number | null;
	page_size?: number | null;
	limit?: number | null;
	cursor_created_at?: string | null;
	cursor_id?: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;

/** True when `item` comes strictly after the cursor in list order. Without cursor_id, ties are skipped. */
function afterCursor(item: Stamped, ms: number, id: string | undefined): boolean {
	if (item.createdAtMs !== ms) return item.createdAtMs < ms;
	return id !== undefined && item.id < id;
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

export function cursorSlice<T extends Stamped>(items: T[], q: PageQuery): T[] {
	const limit = q.limit ?? DEFAULT_PAGE_SIZE;
	if (!q.cursor_created_at) return items.slice(0, limit);
	const ms = parseDateTime(q.cursor_created_at) as number;
	const id = q.cursor_id ?? undefined;
	const first = firstIndexWhere(items, (item) => afterCursor(item, ms, id));
	return items.slice(first, first + limit);
}

/** Page mode alone (lists without a cursor, such as members). */
export function pageSlice<T>(items: T[], q: PageQuery): T[] {
	const size = q.page_size ?? q.limit ?? DEFAULT_PAGE_SIZE;
	const page = q.page ?? 1;
	return items.slice((page - 1) * size, page * size);
}

export function pageOrCursor<T extends Stamped>(items: T[], q: PageQuery): T[] {
	return q.cursor_created_at ? cursorSlice(items, q) : pageSlice(items, q);
}

/** Newest-first copy of an ascending array, keeping only items that pass `keep`. */
export function newestFirst<T>(ascending: T[], keep: (item: T) => boolean): T[] {
	const out: T[] = [];
	for (let i = ascending.length - 1; i >= 0; i--) if (keep(ascending[i])) out.push(ascending[i]);
	return out;
}

/**
 * pageOrCursor(newestFirst(ascending, keep), q) without building the whole filtered list: a cursor is found by
 * binary search in the ascending records, and only the items of the page asked for are collected. A deep page
 * still walks the matches before it; a cursor page costs its own items (what makes a 100,000-record Return All
 * linear rather than quadratic for the sandbox).
 */
export function newestFirstPage<T extends Stamped>(ascending: T[], keep: (item: T) => boolean, q: PageQuery): T[] {
	const out: T[] = [];
	if (q.cursor_created_at) {
		const limit = q.limit ?? DEFAULT_PAGE_SIZE;
		const ms = parseDateTime(q.cursor_created_at) as number;
		const id = q.cursor_id ?? undefined;
		// Ascending, afterCursor is true ... true, false ... false: the items after the cursor end where it turns false.
		const end = firstIndexWhere(ascending, (item) => !afterCursor(item, ms, id));
		for (let i = end - 1; i >= 0 && out.length < limit; i--) if (keep(ascending[i])) out.push(ascending[i]);
		return out;
	}
	const size = q.page_size ?? q.limit ?? DEFAULT_PAGE_SIZE;
	let skip = ((q.page ?? 1) - 1) * size;
	for (let i = ascending.length - 1; i >= 0 && out.length < size; i--) {
		if (!keep(ascending[i])) continue;
		if (skip > 0) skip--;
		else out.push(ascending[i]);
	}
	return out;
}
