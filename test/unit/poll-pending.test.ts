import { boundPending, dueReferences, firstSeen, reschedule } from '../../nodes/BaasPollTrigger/pending';

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
