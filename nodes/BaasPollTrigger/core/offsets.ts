/**
 * What the check for records written late keeps between pages and polls (CheckProgress, core/types.ts) stays true of
 * the list as the mirror changes. An offset is `rank − (lag + mirror index)`: how many records the bank lists above a
 * mirrored record that the mirror lacks. Whatever takes a page in (core/follow.ts, take) can add records to the
 * mirror above a bound, so the offsets follow every change of the mirror, not only the check's own pages (a page
 * climbed between two polls of a paused check left the deeper bound at an offset it no longer had, and the halving
 * looked for a stretch that was already handed on).
 */
import type { Reading, Slot } from './memory';
import { MALFORMED, takeIn } from './memory';
import type { CheckProgress, ListState } from './types';

/** The mirror index of `reference`, or -1. */
export const mirrorIndexOf = (mirror: string[], reference: string | undefined) => (reference === undefined ? -1 : mirror.indexOf(reference));

/** Where the check's bounds and the mirror's first record stand before the mirror changes. */
export interface BoundsAt {
	head: string;
	headIndex: number;
	bad: number;
	shallow: number;
}

export function boundsAt(state: ListState): BoundsAt | undefined {
	const check = state.check;
	if (check === undefined || (check.offset === undefined && check.shallowOffset === undefined)) return undefined;
	const mirror = state.memory.mirror;
	const headIndex = mirror.findIndex((reference) => reference !== MALFORMED);
	if (headIndex < 0) return undefined;
	return { head: mirror[headIndex], headIndex, bad: mirrorIndexOf(mirror, check.bad), shallow: mirrorIndexOf(mirror, check.shallow) };
}

/**
 * After the mirror changed (and the place with its first record): each bound's offset less the entries that came
 * into the mirror between the first record and it. Where the first record left the mirror, the offsets are no longer
 * known: the check measures them again.
 */
export function followMirror(state: ListState, before: BoundsAt | undefined): void {
	const check = state.check;
	if (before === undefined || check === undefined) return;
	const mirror = state.memory.mirror;
	const head = mirror.indexOf(before.head);
	if (head < 0) return forgetOffsets(check);
	const moved = (was: number, reference: string | undefined) => mirrorIndexOf(mirror, reference) - head - (was - before.headIndex);
	if (check.offset !== undefined) check.offset = before.bad < 0 || mirrorIndexOf(mirror, check.bad) < 0 ? undefined : check.offset - moved(before.bad, check.bad);
	if (check.shallowOffset === undefined) return;
	if (before.shallow >= 0 && mirrorIndexOf(mirror, check.shallow) >= 0) check.shallowOffset -= moved(before.shallow, check.shallow);
	else check.shallow = check.shallowOffset = undefined;
}

/** `takeIn` (core/memory.ts), with the check's saved offsets following what it changed in the mirror. */
export function takeInFollowing(state: ListState, slots: Slot[], reading: Reading, handled: number[], startsAtHead: boolean, boundary?: number): ReturnType<typeof takeIn> {
	const before = boundsAt(state);
	const taken = takeIn(state.memory, slots, reading, handled, startsAtHead, boundary);
	followMirror(state, before);
	return taken;
}

/** The place moved down inside the mirror (reopen): what the offsets were measured against is gone. */
export function forgetOffsets(check: CheckProgress): void {
	check.bad = undefined;
	check.offset = undefined;
	check.shallow = undefined;
	check.shallowOffset = undefined;
}

/**
 * The check's bounds stand in the mirror's order: `good` above `shallow` above `bad`, `shallow` at the smaller offset.
 * A `shallow` out of that order (`bad` moved up past it, at its offset) bounds nothing and is dropped: kept, it barred
 * every shallower bound learned after it (a new one must lie below it), and the halving asked for the same page at
 * every poll, for good (the failed transfers of a long fuzz history: a reversal never reported).
 */
export function keepInOrder(progress: CheckProgress, indexOf: (reference: string | undefined) => number): void {
	if (progress.shallow === undefined) return;
	const shallow = indexOf(progress.shallow);
	const between = shallow > indexOf(progress.good) && (progress.bad === undefined || shallow < indexOf(progress.bad));
	if (between && (progress.offset === undefined || (progress.shallowOffset ?? 0) < progress.offset)) return;
	progress.shallow = undefined;
	progress.shallowOffset = undefined;
}
