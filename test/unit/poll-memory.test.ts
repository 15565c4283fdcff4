import type { Memory, Slot } from '../../nodes/BaasPollTrigger/core/memory';
import { emptyMemory, readAgainst, takeIn } from '../../nodes/BaasPollTrigger/core/memory';
import { trim } from '../../nodes/BaasPollTrigger/core/trim';
import { startOf, windowFor } from '../../nodes/BaasPollTrigger/core/windows';

/** A record listed at `ms`. */
const rec = (reference: string, createdMs = 1_000): Slot => ({ reference, createdMs, record: { reference_number: reference } });
const malformed: Slot = {};
/** A memory holding `references` (newest first) as handled, each created at `ms`. */
function remembering(references: string[], ms = 1_000): Memory {
	const memory = emptyMemory();
	for (const reference of references) {
		if (reference !== '') memory.seen.set(reference, ms);
	}
	memory.mirror = [...references];
	return memory;
}
/** Reads `page` against `memory` and takes in every record handed on; returns the references handed on. */
function readAll(memory: Memory, page: Slot[], options: { reachesEnd?: boolean; floorMs?: number | null; atHead?: boolean } = {}) {
	const reading = readAgainst(memory, page, options.reachesEnd ?? false, options.floorMs ?? null);
	const handedOn = reading.deliver.map((position) => page[position].reference);
	const placed = takeIn(memory, page, reading, reading.deliver, options.atHead ?? true);
	return { reading, handedOn, placed };
}

describe('Poll Trigger memory: a page read against what was handled', () => {
	it('hands on the records above the newest handled one, oldest first, and they become the new top', () => {
		const memory = remembering(['h', 'm1', 'm2']);
		const { reading, handedOn, placed } = readAll(memory, [rec('n2'), rec('n1'), rec('h'), rec('m1'), rec('m2')]);
		expect(reading.anchor).toBe('handled');
		expect(handedOn).toEqual(['n1', 'n2']);
		expect(memory.mirror).toEqual(['n2', 'n1', 'h', 'm1', 'm2']);
		expect(placed.headPosition).toBe(0);
	});

	it('a malformed entry the page shows where the mirror has one is kept once (the model check\'s seed 3)', () => {
		const memory = remembering(['a', 'b', '', 'c']);
		const { handedOn } = readAll(memory, [rec('n'), rec('a'), rec('b'), malformed], { atHead: false });
		expect(handedOn).toEqual(['n']);
		// Counted twice, every record below would stand a rank too deep, and a record written late there would balance it.
		expect(memory.mirror).toEqual(['n', 'a', 'b', '', 'c']);
	});

	it('a page of records that are all new says nothing of where they lie: nothing is handed on', () => {
		const memory = remembering(['h']);
		const { reading, handedOn } = readAll(memory, [rec('a'), rec('b'), rec('c')]);
		expect(reading.anchor).toBe('none');
		expect(handedOn).toEqual([]);
		expect(memory.mirror).toEqual(['h']);
	});

	it('a record the bank wrote late between two handled ones is handed on and put in its place', () => {
		const memory = remembering(['h', 'm1', 'm2', 'm3']);
		const { handedOn } = readAll(memory, [rec('m1'), rec('late'), rec('m2')], { atHead: false });
		expect(handedOn).toEqual(['late']);
		expect(memory.mirror).toEqual(['h', 'm1', 'late', 'm2', 'm3']);
	});

	it('below the deepest handled record, a new one counts only after the floor', () => {
		const memory = remembering(['h', 'm1'], 5_000);
		const { handedOn } = readAll(memory, [rec('h', 5_000), rec('m1', 5_000), rec('late', 4_500), rec('old', 100)], { floorMs: 4_000 });
		expect(handedOn).toEqual(['late']);
		expect(memory.mirror).toEqual(['h', 'm1', 'late']);
	});

	it('records the bank no longer lists leave the mirror but stay remembered, so they never come back as new', () => {
		const memory = remembering(['h', 'gone', 'm1']);
		readAll(memory, [rec('h'), rec('m1')]);
		expect(memory.mirror).toEqual(['h', 'm1']);
		expect(memory.seen.has('gone')).toBe(true);
		expect(readAll(memory, [rec('x'), rec('h'), rec('gone'), rec('m1')]).handedOn).toEqual(['x']);
	});

	it('a malformed entry keeps its place in the mirror (it counts for ranks) and is never handed on', () => {
		const memory = remembering(['h']);
		const { handedOn } = readAll(memory, [rec('n1'), malformed, rec('h')]);
		expect(handedOn).toEqual(['n1']);
		expect(memory.mirror).toEqual(['n1', '', 'h']);
	});

	it('when only the oldest new records were handled (the poll ran out of requests), only they join the mirror', () => {
		const memory = remembering(['h']);
		const page = [rec('n3'), rec('n2'), rec('n1'), rec('h')];
		const reading = readAgainst(memory, page, false, null);
		const placed = takeIn(memory, page, reading, reading.deliver.slice(0, 1), true);
		expect(memory.mirror).toEqual(['n1', 'h']);
		expect(placed.headPosition).toBe(2);
		expect(memory.seen.has('n2')).toBe(false);
	});

	it('with nothing mirrored yet, a record older than the floor or the verified end of the list places the page', () => {
		const fromFloor = emptyMemory();
		expect(readAll(fromFloor, [rec('b', 3_000), rec('a', 2_000), rec('x', 500)], { floorMs: 1_000 }).handedOn).toEqual(['a', 'b']);
		expect(fromFloor.mirror).toEqual(['b', 'a']);
		const toEnd = emptyMemory();
		expect(readAll(toEnd, [rec('b'), rec('a')], { reachesEnd: true }).handedOn).toEqual(['a', 'b']);
		expect(readAll(emptyMemory(), [rec('b'), rec('a')]).reading.anchor).toBe('none');
	});

	it('treats no reference as special (constructor, toString, __proto__, hasOwnProperty)', () => {
		const memory = remembering(['h']);
		const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
		expect(readAll(memory, [...names.map((n) => rec(n)), rec('h')]).handedOn).toEqual([...names].reverse());
		expect(readAll(memory, [...names.map((n) => rec(n)), rec('h')]).handedOn).toEqual([]);
	});
});

describe('Poll Trigger memory: bounds', () => {
	it('forgets the oldest beyond the bound, keeps the newest whatever their age, and raises the floor above what it forgot', () => {
		const memory = emptyMemory();
		const references = Array.from({ length: 10 }, (_, i) => `r${i}`);
		references.forEach((reference, i) => memory.seen.set(reference, 10_000 - i * 1_000));
		memory.mirror = [...references];
		const floorMs = trim(memory, { forgetBeforeMs: 5_500, maxSeen: 100, keepTop: 2 });
		expect(memory.mirror).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
		expect(floorMs).toBe(5_500);
		const counted = trim(memory, { forgetBeforeMs: null, maxSeen: 3, keepTop: 2 });
		expect(memory.mirror).toEqual(['r0', 'r1', 'r2']);
		expect([...memory.seen.keys()]).toEqual(['r0', 'r1', 'r2']);
		// r3 (7,000) was forgotten: the floor is above it, so it can never be taken for a record written late.
		expect(counted).toBe(7_001);
		const quiet = remembering(['old1', 'old2'], 1);
		trim(quiet, { forgetBeforeMs: 1_000_000, maxSeen: 100, keepTop: 2 });
		expect(quiet.mirror).toEqual(['old1', 'old2']);
	});
});

describe('Poll Trigger windows: page number and size placing a rank', () => {
	it('always holds the rank, within the cap and at least half of it, where it was asked', () => {
		for (const cap of [7, 50, 100]) {
			for (let rank = 0; rank < 5_000; rank += 37) {
				for (const [placement, slack] of [['bottom', 2], ['bottom', 5], ['top', 2], ['top', 0]] as const) {
					const window = windowFor(rank, cap, placement, slack);
					const position = rank - startOf(window);
					expect(window.size).toBeLessThanOrEqual(cap);
					expect(window.size).toBeGreaterThanOrEqual(Math.ceil(cap / 2));
					expect(position).toBeGreaterThanOrEqual(0);
					expect(position).toBeLessThan(window.size);
				}
			}
		}
	});

	it('reading upward, a page holds most of a page of records above the place (measured over ranks 100 to 10,000)', () => {
		let above = 0;
		let pages = 0;
		for (let rank = 100; rank <= 10_000; rank++) {
			const window = windowFor(rank, 100, 'bottom', 2);
			const position = rank - startOf(window);
			expect(position).toBeLessThanOrEqual(window.size - 1 - 2);
			above += position;
			pages++;
		}
		expect(above / pages).toBeGreaterThan(80);
	});

	it('a rank near the top is read from page 1', () => {
		expect(windowFor(0, 100, 'top', 2)).toEqual({ page: 1, size: 100 });
		expect(windowFor(40, 100, 'bottom', 2)).toEqual({ page: 1, size: 100 });
	});
});
