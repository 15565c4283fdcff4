import type { CursorLimits, Stamp, StreamCursor } from '../../nodes/BaasPollTrigger/cursor';
import { cursorToJson, emptyCursor, markHandled, parseCursor, placeOf, settle } from '../../nodes/BaasPollTrigger/cursor';
import { boundPending, dueReferences, firstSeen, parsePending, pendingToJson, reschedule } from '../../nodes/BaasPollTrigger/pending';

const limits = { overlapMs: 1_000, maxSeen: 5 };
const stamp = (reference: string, createdMs: number) => ({ reference, createdMs });
/** A poll that handled `stamps` at n8n time `nowMs` (default: later than every stamp). */
function advance(cursor: StreamCursor, stamps: Stamp[], bounds: CursorLimits, nowMs = Number.MAX_SAFE_INTEGER): StreamCursor {
	const working = { ...cursor, seen: new Map(cursor.seen) };
	for (const s of stamps) markHandled(working, s);
	return settle(working, nowMs, bounds);
}
const seenOf = (cursor: StreamCursor) => Object.fromEntries(cursor.seen);

describe('Poll Trigger cursor', () => {
	it('keeps the references of the overlap window and forgets older ones', () => {
		const cursor = advance(emptyCursor(0), [stamp('a', 100), stamp('b', 1_500), stamp('c', 2_000)], limits);
		expect(cursorToJson(cursor)).toEqual({ floorMs: 1_000, newestMs: 2_000, seen: [['b', 1_500], ['c', 2_000]] });
		expect(placeOf(cursor, stamp('a', 100))).toBe('behind');
		expect(placeOf(cursor, stamp('b', 1_500))).toBe('seen');
		expect(placeOf(cursor, stamp('d', 2_000))).toBe('new');
		expect(placeOf(cursor, stamp('e', 1_200))).toBe('new');
	});

	it('never moves the floor back', () => {
		const cursor = advance({ floorMs: 5_000, newestMs: 5_000, seen: new Map() }, [stamp('x', 5_100)], limits);
		expect(cursor.floorMs).toBe(5_000);
	});

	it('bounds memory by forgetting whole instants, oldest first, and raising the floor to the oldest kept', () => {
		const stamps = [stamp('a', 10), stamp('b', 20), stamp('c', 20), stamp('d', 30), stamp('e', 30), stamp('f', 30), stamp('g', 40)];
		const cursor = advance(emptyCursor(null), stamps, { overlapMs: 1_000, maxSeen: 5 });
		// 7 references > 5: instant 10 goes, and instant 20 (it would be split by the bound) goes whole.
		expect(Object.keys(seenOf(cursor)).sort()).toEqual(['d', 'e', 'f', 'g']);
		expect(cursor.floorMs).toBe(30);
		expect(placeOf(cursor, stamp('c', 20))).toBe('behind');
	});

	it('keeps a burst larger than the bound whole', () => {
		const burst = Array.from({ length: 8 }, (_, i) => stamp(`r${i}`, 50));
		const cursor = advance(emptyCursor(null), [stamp('old', 10), ...burst], { overlapMs: 1_000, maxSeen: 5 });
		expect(cursor.seen.size).toBe(8);
		expect(cursor.floorMs).toBe(50);
	});

	it('never moves the floor past n8n\'s clock less the overlap, however far ahead the bank stamps a record', () => {
		const hourAhead = stamp('future', 10_000 + 3_600_000);
		const cursor = advance(emptyCursor(0), [stamp('now', 10_000), hourAhead], limits, 10_000);
		expect(cursor.floorMs).toBe(9_000);
		expect(placeOf(cursor, hourAhead)).toBe('seen');
		expect(placeOf(cursor, stamp('next', 10_500))).toBe('new');
	});

	it('treats no reference as special (constructor, toString, __proto__)', () => {
		const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
		expect(names.map((name) => placeOf(emptyCursor(0), stamp(name, 5)))).toEqual(names.map(() => 'new'));
		const cursor = advance(emptyCursor(0), names.map((name) => stamp(name, 5)), { overlapMs: 1, maxSeen: 10 });
		const reread = parseCursor(JSON.parse(JSON.stringify(cursorToJson(cursor))));
		expect(names.map((name) => placeOf(reread!, stamp(name, 5)))).toEqual(names.map(() => 'seen'));
		const pending = parsePending(JSON.parse(JSON.stringify(pendingToJson(new Map([['__proto__', firstSeen(1, 1, [0])]])))));
		expect([...pending.keys()]).toEqual(['__proto__']);
		expect(parsePending([]).has('constructor')).toBe(false);
	});

	it('reads back only what has the saved shape', () => {
		expect(parseCursor({ floorMs: 1, newestMs: null, seen: [['a', 1]] })).toEqual({ floorMs: 1, newestMs: null, seen: new Map([['a', 1]]) });
		// The plain object an earlier version saved is read too.
		expect(parseCursor({ floorMs: 1, newestMs: null, seen: { a: 1 } })?.seen).toEqual(new Map([['a', 1]]));
		expect(parseCursor({ floorMs: 'x', seen: {} })).toBeUndefined();
		expect(parseCursor(undefined)).toBeUndefined();
	});
});

describe('Poll Trigger pending records', () => {
	it('waits longer after each check, then keeps the last wait', () => {
		const delays = [5_000, 15_000, 60_000];
		let record = firstSeen(0, 1_000, delays);
		expect(record.nextCheckMs).toBe(6_000);
		const waits: number[] = [];
		for (let now = 10_000; waits.length < 4; now += 100_000) {
			record = reschedule(record, now, delays);
			waits.push(record.nextCheckMs - now);
		}
		expect(waits).toEqual([15_000, 60_000, 60_000, 60_000]);
	});

	it('checks the longest overdue first, at most the per-poll limit', () => {
		const pending = new Map(
			Object.entries({
				a: { createdMs: 0, firstSeenMs: 0, checks: 0, nextCheckMs: 300 },
				b: { createdMs: 0, firstSeenMs: 0, checks: 0, nextCheckMs: 100 },
				c: { createdMs: 0, firstSeenMs: 0, checks: 0, nextCheckMs: 200 },
				d: { createdMs: 0, firstSeenMs: 0, checks: 0, nextCheckMs: 9_000 },
			}),
		);
		expect(dueReferences(pending, 1_000, 2)).toEqual(['b', 'c']);
	});

	it('gives up the oldest beyond the bound and says which', () => {
		const pending = new Map(
			['a', 'b', 'c'].map((reference, i) => [reference, { createdMs: i, firstSeenMs: i, checks: 0, nextCheckMs: 0 }]),
		);
		const { kept, dropped } = boundPending(pending, 2);
		expect([...kept.keys()].sort()).toEqual(['b', 'c']);
		expect(dropped).toEqual(['a']);
	});
});
