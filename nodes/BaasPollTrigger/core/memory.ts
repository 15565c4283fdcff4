/**
 * What the Poll Trigger remembers of one list, and how one page of the bank's list is read against it. Pure: no
 * requests.
 *
 * - `seen`: every record handled (emitted, watched as pending, or history at the start), reference → created_at.
 *   This is what makes each event once: a record in `seen` is never handled again.
 * - `mirror`: the references of handled records in the order the bank lists them, newest first, with '' for an
 *   entry the bank listed malformed (null, no reference…), which still takes a place in the list. It tells where
 *   the trigger is: a page that shows a mirrored record shows where every record around it stands.
 *
 * The rule that keeps events exact: a record is handed on only when the page it came in shows where it lies
 * against records already handled (or against the list's verified end, or a record older than the floor). A page
 * is one contiguous piece of the list, so a record above a handled one in the same page is newer than it with
 * nothing unread between them. Ranks (positions counted from the newest) are only guesses of where to read next:
 * a wrong guess costs a request, never an event.
 */
import type { IDataObject } from 'n8n-workflow';

/** One place in a page of the bank's list. `reference` is undefined for a malformed entry. */
export interface Slot {
	reference?: string;
	createdMs?: number;
	record?: IDataObject;
	/** A malformed entry's reference_number, when it has one (its created_at is what is wrong). */
	unstamped?: string;
}

export const MALFORMED = '';

export interface Memory {
	seen: Map<string, number>;
	mirror: string[];
}

export const emptyMemory = (): Memory => ({ seen: new Map(), mirror: [] });

/** Records created before this are history (ListState.floorMs), unless the start saw the whole list. */
export const historyFloor = (state: { floorMs: number | null; unseenIsNew?: true }): number | null => (state.unseenIsNew ? null : state.floorMs);

/** A slot holding a record (a malformed entry has no reference or no valid created_at). */
export const isValid = (slot: Slot): slot is Required<Pick<Slot, 'reference' | 'createdMs'>> & Slot =>
	slot.reference !== undefined && slot.createdMs !== undefined;

/** Why the page could be placed against what the trigger knows. */
export type Anchor = 'handled' | 'end' | 'floor' | 'none';

export interface Reading {
	anchor: Anchor;
	/** New records below the deepest handled one that the page could not place (no older record or end below them). */
	unplacedBelow: boolean;
	/** Positions (in the page) of the records to hand on, oldest first. */
	deliver: number[];
	/** Page positions of slots whose reference is in the mirror, with their mirror index. */
	mirrored: Array<{ position: number; index: number }>;
	/** The page would place more where it ends the list: it ends with malformed entries the mirror holds (besideMalformed). */
	besideEnd?: true;
	/** Placed by the floor: the position where history begins in the page (historyStart). */
	history?: number;
	/** Placed by the floor: records above `history` older than the floor, not handled before: history all the same. */
	oldAbove?: number[];
}

/**
 * Reads one page against the memory. `reachesEnd`: the page is known to end where the list ends. `floorMs`:
 * records created before it are history (before the trigger started or long behind it); null when every record
 * counts. While the mirror holds records, only they place a page: a page of records that are all new says nothing
 * of where they lie against what was handled, so nothing of it is handed on. `asWritten`: the bank lists records
 * as it wrote them (Paging.asWritten), so nothing under a handled record is news.
 */
export function readAgainst(memory: Memory, slots: Slot[], reachesEnd: boolean, floorMs: number | null, asWritten = false): Reading {
	const indexOf = mirrorIndex(memory);
	const mirrored: Reading['mirrored'] = [];
	let deepestKnown = -1;
	slots.forEach((slot, position) => {
		if (!isValid(slot) || !memory.seen.has(slot.reference)) return;
		deepestKnown = position;
		const index = indexOf.get(slot.reference);
		if (index !== undefined) mirrored.push({ position, index });
	});
	const beside = besideMalformed(memory, slots, deepestKnown, mirrored);
	if (reachesEnd && beside !== undefined) deepestKnown = beside;
	const isNew = (slot: Slot) => isValid(slot) && !memory.seen.has(slot.reference);
	const afterFloor = (slot: Slot) => floorMs === null || (slot.createdMs as number) >= floorMs;
	let anchor: Anchor = 'none';
	let bottom = -1;
	let historyAt: number | undefined;
	if (deepestKnown >= 0) {
		anchor = 'handled';
		bottom = deepestKnown;
	} else if (firstValid(memory) === undefined) {
		// Nothing mirrored to place the page against (a new place, or Start From): the floor or the list's end does.
		const history = floorMs === null ? -1 : historyStart(memory, slots, floorMs);
		if (history >= 0) {
			anchor = 'floor';
			bottom = history;
			historyAt = history;
		} else if (reachesEnd) {
			anchor = 'end';
			bottom = slots.length;
		}
	}
	const deliver: number[] = [];
	if (anchor === 'none') return { anchor, deliver, mirrored, unplacedBelow: false };
	// Below the deepest handled record, new records are ones the bank wrote late. They are placed only down to a
	// record older than the floor (or the list's end) in the same page; without one, more may lie below the page,
	// older still, and handing these on first would break oldest first (follow.ts reads that stretch upward).
	let placedTo = bottom;
	if (anchor === 'handled') {
		const history = floorMs === null ? -1 : slots.findIndex((slot, position) => position > bottom && isValid(slot) && slot.createdMs < floorMs);
		placedTo = history >= 0 ? history : reachesEnd ? slots.length : bottom;
	}
	let unplacedBelow = false;
	for (let position = slots.length - 1; position >= 0; position--) {
		const slot = slots[position];
		if (!isNew(slot)) continue;
		// Under the deepest handled record, only what is after the floor; nothing in a list kept as written.
		if ((position > bottom || anchor !== 'handled') && (!afterFloor(slot) || (asWritten && anchor === 'handled'))) continue;
		if (position >= placedTo) unplacedBelow = true;
		else deliver.push(position);
	}
	const oldAbove = historyAt === undefined ? [] : slots.map((_, position) => position).filter((position) => position < bottom && isNew(slots[position]) && !afterFloor(slots[position]));
	const besideEnd = !reachesEnd && beside !== undefined && beside > deepestKnown ? { besideEnd: true as const } : {};
	return { anchor, deliver, mirrored, unplacedBelow, ...besideEnd, ...(historyAt !== undefined ? { history: historyAt, oldAbove } : {}) };
}

/**
 * The position of the last of the page's entries, all with no record, that the mirror holds right under the
 * deepest record the page shows as handled (`deepest`): the page ends with as many such entries, and shows no other
 * below that record. Records listed between them were written after the two were read side by side: news, whatever
 * their stamps (a start's floor set by a record stamped in the bank's future took them for history). Used only where
 * the page ends the list: above entries the bank still lists further down, a malformed entry repaired since (its
 * record history) would take a deeper one's place; nor where another such entry lies between (history the mirror
 * forgot may lie above a deeper one).
 */
function besideMalformed(memory: Memory, slots: Slot[], deepest: number, mirrored: Reading['mirrored']): number | undefined {
	const at = mirrored.find((m) => m.position === deepest);
	if (at === undefined) return undefined;
	let owed = 0;
	while (memory.mirror[at.index + 1 + owed] === MALFORMED) owed++;
	const run = slots.length - owed;
	if (owed === 0 || run <= deepest) return undefined;
	// The page's last `owed` entries, and no other entry with no record between them and the record.
	for (let position = deepest + 1; position < slots.length; position++) if (isValid(slots[position]) !== position < run) return undefined;
	return slots.length - 1;
}

/** Records older than the floor in a row that show where history begins in a page placed by the floor alone. */
const HISTORY_RUN = 3;

/**
 * Where history begins in a page with nothing mirrored: its first record older than the floor; -1: nowhere. While
 * nothing was ever handled (a Start From backfill, whose floor is Start From itself), the first from which the page
 * shows HISTORY_RUN such records in a row (entries with no record aside), or only such records down to its end: one
 * or two old records above newer ones are records written late with old stamps on top of a list ordered as the bank
 * wrote them, and taken for where history begins, they hid the news under them for good. Not after a lost place:
 * the floor is then what was remembered, which in such a list bounds nothing, and a record stamped in the bank's
 * future among history would lie above where history began.
 */
function historyStart(memory: Memory, slots: Slot[], floorMs: number): number {
	const old = (slot: Slot) => isValid(slot) && slot.createdMs < floorMs;
	const run = memory.seen.size === 0 ? HISTORY_RUN : 1;
	for (let position = 0; position < slots.length; position++) {
		if (!old(slots[position])) continue;
		let found = 0;
		let next = position;
		for (; next < slots.length && found < run; next++) {
			if (!isValid(slots[next])) continue;
			if (!old(slots[next])) break;
			found++;
		}
		if (found >= run || next >= slots.length) return position;
	}
	return -1;
}

/**
 * Whether a page shows what lies below the record at `position` as far as the floor: a record older than the
 * floor below it, or the list's end. `lateBelow`: new records at or after the floor below it, not placed (more may
 * lie below the page).
 */
export function belowOf(
	memory: Memory,
	slots: Slot[],
	position: number,
	reachesEnd: boolean,
	floorMs: number | null,
): { settled: boolean; lateBelow: boolean; newBelow: boolean } {
	let newBelow = false;
	for (let p = position + 1; p < slots.length; p++) {
		const slot = slots[p];
		if (!isValid(slot)) continue;
		if (floorMs !== null && slot.createdMs < floorMs) return { settled: true, lateBelow: false, newBelow };
		if (!memory.seen.has(slot.reference)) newBelow = true;
	}
	return { settled: reachesEnd, lateBelow: newBelow && !reachesEnd, newBelow };
}

function mirrorIndex(memory: Memory): Map<string, number> {
	const index = new Map<string, number>();
	memory.mirror.forEach((reference, i) => {
		if (reference !== MALFORMED && !index.has(reference)) index.set(reference, i);
	});
	return index;
}

/**
 * Takes a page into the memory once its records were handled: `handled` are the positions handed on (a prefix of
 * `reading.deliver`, which is oldest first). They join `seen`, and the mirror takes the page's order for the
 * stretch the page shows: between the mirrored records it holds, the page is the truth (records the bank wrote
 * late are added, records it no longer lists are dropped from the mirror but stay in `seen`). A record the page
 * showed but that was not handled (the poll ran out of requests) is left out, so it is found again.
 * `startsAtHead`: the page is the list's first page. `boundary`: the position of a record older than the floor to
 * stand on (it joins `seen` as history, never handed on). Returns the page position of the mirror's first entry when
 * the page holds it (the trigger's new place).
 */
export function takeIn(memory: Memory, slots: Slot[], reading: Reading, handled: number[], startsAtHead: boolean, boundary?: number): { headPosition?: number } {
	const taken = new Set(handled);
	for (const position of taken) {
		const slot = slots[position];
		memory.seen.set(slot.reference as string, slot.createdMs as number);
	}
	const keep = (position: number) => {
		const slot = slots[position];
		if (!isValid(slot)) return true;
		return taken.has(position) || memory.seen.has(slot.reference);
	};
	const refOf = (position: number) => (isValid(slots[position]) ? (slots[position].reference as string) : MALFORMED);
	if (reading.anchor === 'none') return {};
	if (reading.mirrored.length === 0) {
		// Placed by the floor, the list's end, or records remembered but no longer mirrored: the mirror starts afresh
		// with the stretch of the page from its deepest record handled or known, up to the first record not handled.
		if (boundary !== undefined) memory.seen.set(slots[boundary].reference as string, slots[boundary].createdMs as number);
		// Old records the page listed among the news it hands on are history: remembered, so that no later page, placed
		// by what was handled, hands them on as records written late above it.
		if (handled.length > 0) for (const position of reading.oldAbove ?? []) memory.seen.set(slots[position].reference as string, slots[position].createdMs as number);
		const anchored = slots.map((_, position) => position).filter((position) => taken.has(position) || (isValid(slots[position]) && memory.seen.has(slots[position].reference as string)));
		// A mirror that still holds records is not replaced by a page that handed nothing on.
		if (anchored.length === 0 || (handled.length === 0 && firstValid(memory) !== undefined)) return {};
		let top = Math.max(...anchored);
		const deepest = top;
		while (top > 0 && keep(top - 1)) top--;
		const order: string[] = [];
		for (let position = top; position <= deepest; position++) order.push(refOf(position));
		memory.mirror = order;
		return { headPosition: top };
	}
	const positions = reading.mirrored.map((m) => m.position);
	let topPos = Math.min(...positions);
	const bottomPos = Math.max(...positions);
	let topIndex = Math.min(...reading.mirrored.map((m) => m.index));
	let bottomIndex = Math.max(...reading.mirrored.map((m) => m.index));
	// Malformed entries atop the mirror lie just above its first record in the page too: the page holds the top.
	const lead = firstValid(memory)?.index ?? 0;
	if (topIndex === lead && lead > 0 && topPos >= lead && slots.slice(topPos - lead, topPos).every((slot) => !isValid(slot))) {
		topIndex = 0;
		topPos -= lead;
	}
	if (startsAtHead && topIndex > 0) {
		// The page starts at the list's top, and the mirror's first entries are not above its first mirrored record:
		// the bank no longer lists them there. They stay in `seen`.
		memory.mirror = memory.mirror.slice(topIndex);
		bottomIndex -= topIndex;
		topIndex = 0;
	}
	const above: string[] = [];
	if (topIndex === 0) {
		// The page holds the mirror's first entry: what is above it, up to the first record not handled, is the new top.
		for (let position = topPos - 1; position >= 0 && keep(position); position--) above.unshift(refOf(position));
	} else {
		// The page starts inside the mirror: only records handed on from above its first mirrored record are added.
		for (let position = 0; position < topPos; position++) if (taken.has(position)) above.push(refOf(position));
	}
	const between: string[] = [];
	for (let position = topPos; position <= bottomPos; position++) if (keep(position)) between.push(refOf(position));
	// Below the page's deepest mirrored record: the stretch of records handled or remembered, down to the first not.
	const below: string[] = [];
	const tail = memory.mirror.slice(bottomIndex + 1);
	for (let position = bottomPos + 1; position < slots.length && keep(position); position++) {
		const reference = refOf(position);
		// A malformed slot the page shows where the mirror has one is that same entry: counted twice, the mirror would
		// put every record below it a rank too deep, and a record written late there would go unnoticed.
		if (reference === MALFORMED && tail[0] === MALFORMED) tail.shift();
		below.push(reference);
	}
	memory.mirror = [...memory.mirror.slice(0, topIndex), ...above, ...between, ...below, ...tail];
	if (topIndex !== 0) return {};
	return { headPosition: topPos - above.length };
}

/** The mirror's first entry that is a record (not a malformed slot), with its index. */
export function firstValid(memory: Memory): { index: number; reference: string } | undefined {
	const index = memory.mirror.findIndex((reference) => reference !== MALFORMED);
	return index < 0 ? undefined : { index, reference: memory.mirror[index] };
}

/** The index of the mirror's last entry that is a record, or -1. */
export function lastValid(mirror: string[]): number {
	for (let i = mirror.length - 1; i >= 0; i--) if (mirror[i] !== MALFORMED) return i;
	return -1;
}
