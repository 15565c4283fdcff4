/**
 * Which page to ask for. The bank lists newest first and pages by number: page p of size z holds the records at
 * ranks (p-1)·z … p·z-1 (rank 0 is the newest). Any size up to the bank's cap may be asked, so a window can be
 * placed where a record of known rank falls at a chosen position inside it. Pure arithmetic, no requests.
 */
export interface Window {
	page: number;
	size: number;
}

export const startOf = (window: Window) => (window.page - 1) * window.size;

/**
 * Where the record at `rank` should fall in the window:
 * - 'bottom': as low as possible but `slack` records above the window's end, so the window holds the most
 *   records newer than it (reading upward) and it is still inside if up to `slack` new records pushed it down;
 * - 'top': near the window's top (position `slack` or just after), so it is found even when many records were
 *   written above it since its rank was known.
 */
export type Placement = 'bottom' | 'top';

/**
 * The window of at most `cap` records (and at least half of it) placing `rank` as asked. 'bottom' keeps at least
 * `above` records above it (default 1: a page read upward must hold something new).
 */
export function windowFor(rank: number, cap: number, placement: Placement, slack: number, above = 1): Window {
	const size = Math.max(1, Math.floor(cap));
	if (rank < size && (placement === 'bottom' ? rank <= size - 1 - slack : rank <= slack)) return { page: 1, size };
	// Reading upward, a page must hold at least one record above the place: the slack gives way first, then
	// pages under half the cap are tried.
	for (let room = placement === 'bottom' ? slack : 0; room >= -1; room--) {
		let best: { window: Window; score: number } | undefined;
		const smallest = room >= 0 ? Math.max(1, Math.ceil(size / 2)) : 2;
		for (let z = size; z >= smallest; z--) {
			const position = rank % z;
			// bottom: the records above it, if it stays `slack` from the end; top: the room below it, past `slack`.
			const fits = placement === 'bottom' ? position <= z - 1 - Math.max(0, room) && position >= Math.min(above, rank) : position >= Math.min(slack, rank);
			if (!fits) continue;
			const score = placement === 'bottom' ? position : z - 1 - position - Math.max(0, position - slack);
			if (best === undefined || score > best.score) best = { window: { page: Math.floor(rank / z) + 1, size: z }, score };
		}
		if (best !== undefined) return best.window;
	}
	// No page holds both the rank and a record above it (every size up to the cap divides it): the rank opens its page.
	return { page: Math.floor(rank / size) + 1, size };
}

/** The largest window of at most `cap` records holding ranks `from` … `to`; undefined when no page number and size hold both. */
export function windowHolding(from: number, to: number, cap: number): Window | undefined {
	for (let z = Math.max(1, Math.floor(cap)); z > to - from; z--) {
		if (Math.floor(from / z) === Math.floor(to / z)) return { page: Math.floor(from / z) + 1, size: z };
	}
	return undefined;
}

/**
 * Room to leave below the place in the first page of a poll, for what the bank wrote above it since the last poll:
 * twice what it wrote between the last two polls (`grewBy`), at most half a page; half a page when that is not known.
 */
export function firstSlack(slack: number, cap: number, grewBy: number | undefined): number {
	const half = Math.floor(cap / 2);
	return grewBy === undefined ? Math.max(slack, half) : Math.max(slack, Math.min(half, 2 * grewBy));
}
