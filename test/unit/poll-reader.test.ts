/**
 * The Poll Trigger's reader: whether a page shorter than asked is where the bank's list ends, against a list served
 * by page number from an array (newest first), with a page cap and records landing between two reads.
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import { endsList } from '../../nodes/BaasPollTrigger/core/frames';
import type { Slot } from '../../nodes/BaasPollTrigger/core/memory';
import { emptyMemory } from '../../nodes/BaasPollTrigger/core/memory';
import type { FollowOptions, Page, Paging } from '../../nodes/BaasPollTrigger/core/types';
import type { Window } from '../../nodes/BaasPollTrigger/core/windows';
import { pageOf, runCore } from '../support/coreDriver';

type Entry = { reference_number: string; created_at: string } | null;
const toSlot = (entry: Entry): Slot => (entry === null ? {} : { reference: entry.reference_number, createdMs: Date.parse(entry.created_at) });

/** A bank list of `count` records (r0 newest) serving at most `cap` a page; `land` records are written at the top after each read. */
function bank(count: number, cap: number, land = 0, nullAt: number[] = []) {
	const list: Entry[] = Array.from({ length: count }, (_, i) =>
		nullAt.includes(i) ? null : { reference_number: `r${i}`, created_at: new Date(Date.UTC(2026, 1, 1, 0, 0, count - i)).toISOString() },
	);
	let landed = 0;
	const pages: Array<{ page: number; size: number }> = [];
	const paging: Paging = { cap: 100, served: 0 };
	const options: FollowOptions = { nowMs: 0, ordered: true, requestsLeft: () => 20, bank: { served: 0 } };
	const read = (window: Window): Page => {
		pages.push({ page: window.page, size: Math.min(window.size, cap) });
		const page = pageOf(list, window, toSlot, cap);
		for (let i = 0; i < land; i++) list.unshift({ reference_number: `new${landed++}`, created_at: new Date(Date.UTC(2026, 1, 1, 1)).toISOString() });
		// As the core's reads note what the bank served.
		paging.served = Math.max(paging.served, page.slots.length);
		options.bank.served = Math.max(options.bank.served, page.slots.length);
		return page;
	};
	/** Whether the core takes `page` for the list's end (it reads what it needs to tell). */
	const ends = (page: Page) => {
		const follower = new ListFollower({ memory: emptyMemory(), lag: 0, floorMs: null, paging }, options);
		return runCore(follower, { read, handOn: () => 0 }, endsList(page, 'place'));
	};
	return { reader: { read, ends, paging }, pages };
}

describe('Poll Trigger reader: a short page', () => {
	it('is not the end when the bank caps its pages, even with a record landing at the top between the two reads', () => {
		const { reader, pages } = bank(300, 84, 1);
		const first = reader.read({ page: 1, size: 100 });
		expect(first.slots).toHaveLength(84);
		expect(reader.ends(first)).toBe(false);
		expect(reader.paging.cap).toBe(84);
		expect(pages).toEqual([
			{ page: 1, size: 84 },
			{ page: 2, size: 84 },
		]);
	});

	it('is the end when the next page holds only its own records, pushed down by records written above', () => {
		const { reader } = bank(30, 84, 2);
		const first = reader.read({ page: 1, size: 50 });
		expect(first.slots).toHaveLength(30);
		expect(reader.ends(first)).toBe(true);
		expect(reader.paging.cap).toBe(100);
	});

	it('below the first page, is the end when the first page asked the same size is full (not a cap of what it served)', () => {
		const { reader, pages } = bank(320, 500);
		const last = reader.read({ page: 4, size: 100 });
		expect(last.slots).toHaveLength(20);
		expect(reader.ends(last)).toBe(true);
		expect(reader.paging.cap).toBe(100);
		expect(pages[1]).toEqual({ page: 1, size: 100 });
	});

	it('below the first page, is a cap when the first page asked the same size is short too', () => {
		const { reader } = bank(300, 84);
		const third = reader.read({ page: 3, size: 100 });
		expect(third.slots).toHaveLength(84);
		expect(reader.ends(third)).toBe(false);
		expect(reader.paging.cap).toBe(84);
	});

	it('is the end when the next page holds only its own entries pushed down, a null entry among them', () => {
		// Three records land at the top between the two reads (one after each): the next page shows the same three.
		const pushed = bank(3, 84, 3, [1]);
		const top = pushed.reader.read({ page: 1, size: 100 });
		expect(top.slots).toHaveLength(3);
		expect(pushed.reader.ends(top)).toBe(true);
		expect(pushed.reader.paging.cap).toBe(100);
		// The first page asked one record longer tells it from a bank serving three a page: it serves four.
		expect(pushed.pages).toEqual([
			{ page: 1, size: 84 },
			{ page: 2, size: 3 },
			{ page: 1, size: 4 },
		]);
	});

	it('is a cap when the next page shows only its record again and the first page asked one record longer is as short: a bank serving one record a page, a record written between the reads', () => {
		const { reader, pages } = bank(5, 1, 1);
		const first = reader.read({ page: 1, size: 100 });
		expect(reader.ends(first)).toBe(false);
		expect(reader.paging.cap).toBe(1);
		// Taken for the end (as 06f8834 did), the list was one record long: the four under it were read as records
		// written late, after newer ones (fuzz seed 15188).
		expect(pages).toEqual([
			{ page: 1, size: 1 },
			{ page: 2, size: 1 },
			{ page: 1, size: 1 },
		]);
	});

	it('is the end when the next page shows only its record again and the first page asked one record longer is full: a list of one record, a record written between the reads', () => {
		const { reader } = bank(1, 84, 1);
		const first = reader.read({ page: 1, size: 100 });
		expect(reader.ends(first)).toBe(true);
		// Taken for a cap (as fe4db91 did), the cap learned was one record, for a day: bursts never drained.
		expect(reader.paging.cap).toBe(100);
	});

	it('is the end when the next page is empty', () => {
		const { reader } = bank(30, 84);
		const first = reader.read({ page: 1, size: 50 });
		expect(reader.ends(first)).toBe(true);
	});
});
