/**
 * The check for records written late saves where it saw records (CheckProgress, core/types.ts) as facts a page showed,
 * and works out the offsets it needs from them when it uses them. An offset is `rank − (lag + mirror index)`: how many
 * records the bank lists above a mirrored record that the mirror lacks. Saved as a number, it described the mirror of
 * the moment, and every page taken in since (a page climbing to the top between two polls of a paused check) had to
 * shift it, or the halving looked for a stretch already handed on. A fact (`Seen`: the record stood so many ranks below
 * a record in place above it) stays true whatever the mirror takes in; it is forgotten only with the records it names.
 */
import { lastValid, MALFORMED } from './memory';
import type { CheckProgress, Seen } from './types';

/** The mirror index of `reference`, or -1. */
export const mirrorIndexOf = (mirror: string[], reference: string | undefined) => (reference === undefined ? -1 : mirror.indexOf(reference));

/** The mirror's first record (its first entry may be malformed) and its index; undefined when it holds none. */
function headOf(mirror: string[]): { head: string; index: number } | undefined {
	const index = mirror.findIndex((reference) => reference !== MALFORMED);
	return index < 0 ? undefined : { head: mirror[index], index };
}

/**
 * What a page showed: `reference` at `offset` now, as a fact against a record in place above it — the deepest seen in
 * place (`good`), else the mirror's first record. Anchored at the first record, records written later between the
 * two (under a first record stamped in the bank's future, which stays on top) and then taken in made the offset
 * worked out from it smaller than any the list shows (below 0: fuzz seeds 1–100,000, one history in each shape);
 * anchored right above the stretch, only records written late inside it change it, which is what the check looks for.
 */
export function seenAt(mirror: string[], reference: string, offset: number, good?: string): Seen | undefined {
	const index = mirrorIndexOf(mirror, reference);
	const above = mirrorIndexOf(mirror, good);
	if (index < 0) return undefined;
	if (good !== undefined && above >= 0 && above < index) return { reference, anchor: good, span: offset + index - above };
	const head = headOf(mirror);
	return head === undefined ? undefined : { reference, anchor: head.head, span: offset + index - head.index };
}

/**
 * The offset of what `seen` saw, in today's mirror: the ranks it stood below its first record, less the mirror
 * entries between the two. Unknown (undefined) once either left the mirror (the place moved down past them).
 */
export function offsetOf(mirror: string[], seen: Seen | undefined): number | undefined {
	if (seen === undefined) return undefined;
	const head = mirrorIndexOf(mirror, seen.anchor);
	const index = mirrorIndexOf(mirror, seen.reference);
	return head < 0 || index < 0 ? undefined : seen.span - (index - head);
}

/** The check's bounds as offsets in today's mirror: what one round of the check works with (check.ts). */
export interface Bounds {
	good?: string;
	bad?: string;
	offset?: number;
	shallow?: string;
	shallowOffset?: number;
}

/** `progress` in today's mirror: a bound whose offset is no longer known is no bound. */
export function boundsOf(mirror: string[], progress: CheckProgress): Bounds {
	const offset = offsetOf(mirror, progress.bad);
	const shallowOffset = offset === undefined ? undefined : offsetOf(mirror, progress.shallow);
	return {
		good: progress.good,
		...(offset !== undefined ? { bad: progress.bad?.reference, offset } : {}),
		...(shallowOffset !== undefined ? { shallow: progress.shallow?.reference, shallowOffset } : {}),
	};
}

/** Saves `bounds` into `progress` as facts, anchored at `good` (a shallower bound only beside a deeper one). */
export function saveBounds(mirror: string[], progress: CheckProgress, bounds: Bounds): void {
	progress.good = bounds.good;
	progress.bad = bounds.bad === undefined || bounds.offset === undefined ? undefined : seenAt(mirror, bounds.bad, bounds.offset, bounds.good);
	progress.shallow =
		progress.bad === undefined || bounds.shallow === undefined || bounds.shallowOffset === undefined ? undefined : seenAt(mirror, bounds.shallow, bounds.shallowOffset, bounds.good);
}

/**
 * The check's bounds stand in the mirror's order: `good` above `shallow` above `bad`, `shallow` at the smaller offset.
 * A `shallow` out of that order (`bad` moved up past it, at its offset) bounds nothing and is dropped: kept, it barred
 * every shallower bound learned after it (a new one must lie below it), and the halving asked for the same page at
 * every poll, for good (the failed transfers of a long fuzz history: a reversal never reported).
 */
export function keepInOrder(bounds: Bounds, indexOf: (reference: string | undefined) => number): void {
	if (bounds.shallow === undefined) return;
	const shallow = indexOf(bounds.shallow);
	const between = shallow > indexOf(bounds.good) && (bounds.bad === undefined || shallow < indexOf(bounds.bad));
	if (between && (bounds.offset === undefined || (bounds.shallowOffset ?? 0) < bounds.offset)) return;
	bounds.shallow = undefined;
	bounds.shallowOffset = undefined;
}

/**
 * What one page's offsets (`shown`: a mirrored record's reference and its offset, as the page showed it) say of where
 * the deepest stretch of records written late lies, given `bounds` before it. Pure: returns the new bounds.
 * - The deepest record shown at a new offset: it is the deeper bound, at that offset (a shallower one learned against
 *   the old offset bounds nothing).
 * - The deeper bound shown at another offset than saved: the list changed under the check; it measures again.
 * - A record at or above `good` that is not in place (written late above it since): in place is only what this
 *   poll's placing page showed (`inPlace`, the deepest record it showed at its rank).
 * - Shallowest first: a record in place below `good` becomes `good`; one at the deeper offset above `bad` becomes
 *   `bad`; one at a smaller offset between `shallow` and `bad` becomes `shallow`; one deeper than the deepest
 *   record's offset: the list changed, the check measures again.
 * - The deepest record in place: everything is (`good` is the deepest).
 */
export function learnBounds(mirror: string[], inPlace: string | undefined, bounds: Bounds, shown: Map<string, number>): Bounds {
	const progress = { ...bounds };
	const indexOf = (reference: string | undefined) => mirrorIndexOf(mirror, reference);
	keepInOrder(progress, indexOf);
	const deepest = mirror[lastValid(mirror)];
	const deepestOffset = shown.get(deepest);
	if (deepestOffset !== undefined && deepestOffset !== progress.offset) {
		progress.offset = deepestOffset;
		progress.bad = deepest;
		progress.shallow = undefined;
	}
	const bad = progress.bad === undefined ? undefined : shown.get(progress.bad);
	if (bad !== undefined && bad !== progress.offset) progress.offset = undefined;
	const good = indexOf(progress.good);
	if ([...shown].some(([reference, offset]) => offset !== 0 && indexOf(reference) <= good)) {
		progress.good = inPlace;
		progress.shallow = undefined;
	}
	for (const [reference, offset] of [...shown].sort((a, b) => indexOf(a[0]) - indexOf(b[0]))) {
		const index = indexOf(reference);
		if (offset === 0 && index > indexOf(progress.good)) progress.good = reference;
		if (progress.offset === undefined || offset === 0) continue;
		if (offset > progress.offset) {
			progress.offset = undefined;
			return progress;
		}
		if (offset === progress.offset && index < indexOf(progress.bad)) progress.bad = reference;
		if (offset < progress.offset && index > indexOf(progress.shallow) && index < indexOf(progress.bad)) {
			progress.shallow = reference;
			progress.shallowOffset = offset;
		}
	}
	if (progress.offset === 0) progress.good = deepest;
	keepInOrder(progress, indexOf);
	return progress;
}
