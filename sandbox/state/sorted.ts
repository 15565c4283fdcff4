/** Records are kept ascending by (createdAtMs, id); lists read them newest first, so equal timestamps stay stable. */

export interface Stamped {
	id: string;
	createdAtMs: number;
}

/** Negative when a comes before b in list order (newest first, then id descending). */
export function compareNewestFirst(a: Stamped, b: Stamped): number {
	if (a.createdAtMs !== b.createdAtMs) return b.createdAtMs - a.createdAtMs;
	return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Insert into an ascending array; new records are usually the newest, so search from the end. */
export function insertAscending<T extends Stamped>(items: T[], item: T): void {
	let i = items.length;
	while (i > 0 && compareNewestFirst(items[i - 1], item) < 0) i--;
	items.splice(i, 0, item);
}
