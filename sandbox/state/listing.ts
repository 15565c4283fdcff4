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

export function cursorSlice<T extends Stamped>(items: T[], q: PageQuery): T[] {
	const limit = q.limit ?? DEFAULT_PAGE_SIZE;
	if (!q.cursor_created_at) return items.slice(0, limit);
	const ms = parseDateTime(q.cursor_created_at) as number;
	const id = q.cursor_id ?? undefined;
	// afterCursor is monotone over the ordered list (false ... false, true ... true): binary search the switch.
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (afterCursor(items[mid], ms, id)) hi = mid;
		else lo = mid + 1;
	}
	return items.slice(lo, lo + limit);
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
