/**
 * Rules of the Poll Trigger that keep what it owes from never coming: most keep a list from going round in a cycle
 * (a poll that reads what the last one read and leaves the same state behind does so at every poll after it; the
 * fuzz's drain names such a history "in a cycle"), driven directly against a list served by page number
 * (test/support/coreRules.ts); the last keeps a start's floor from hiding a reversal. docs/architecture.md, "The
 * core's rules", names each.
 */
import { seenAt } from '../../nodes/BaasPollTrigger/core/offsets';
import type { ListState } from '../../nodes/BaasPollTrigger/core/types';
import type { Row } from '../support/coreRules';
import { handBuilt, poll, row, standingAt, T0, toSlot } from '../support/coreRules';
import type { Write } from '../support/pollFuzz/bank';
import { runHistory } from '../support/pollFuzz/driver';
import { ACCOUNT } from '../support/pollFuzz/history';

const MALFORMED: Row = { reference: '', createdMs: NaN };
const slotOf = (r: Row) => (r.reference === '' ? {} : toSlot(r));
const HOUR_AHEAD = 3_600;

/** Polls `state` `polls` times on `list`, `budget` requests each, the bank serving `cap` records a page. */
function polls(state: ListState, list: Row[], count: number, budget: number, cap: number): string[] {
	const emitted: string[] = [];
	for (let i = 0; i < count; i++) emitted.push(...poll(state, list, budget, cap, slotOf).emitted);
	return emitted;
}

describe('Poll Trigger: a list never goes round in a cycle (core/search.ts, below.ts, across.ts, check.ts)', () => {
	it('a search with nothing handled meets where a page of entries with no record ends the list, not at its top (judge)', () => {
		// A Start From backfill: two records over two entries with no record, three entries a page, 4 requests a poll;
		// an earlier poll's search left its lower bound at rank 3. The page there, [no record], ends the list at 4.
		const list = [row('n8', 80), row('n6', 60), MALFORMED, MALFORMED];
		const state: ListState = { memory: { seen: new Map(), mirror: [] }, lag: null, searchFrom: 3, floorMs: T0, paging: { cap: 3, served: 3 } };
		// Met at the page's top (rank 3), the page then read for the list's end held ranks 2-3 and never showed it: the
		// search started again from rank 3 at every poll, the same four requests, nothing emitted.
		expect(polls(state, list, 6, 4, 3)).toEqual(['n6', 'n8']);
	});

	it('looks below the start\'s only record while every unseen record is news, though the floor lies above what is written after it (lookBelow)', () => {
		// The start saw the whole list: one record stamped an hour in the bank's future, which set the floor. Two
		// records written since lie under it (a list ordered by created_at); the bank serves one record a page.
		const future = row('f0', HOUR_AHEAD);
		const state: ListState = {
			memory: { seen: new Map([[future.reference, future.createdMs]]), mirror: [future.reference] },
			lag: 0,
			floorMs: future.createdMs + 1,
			unseenIsNew: true,
			paging: { cap: 100, served: 1 },
		};
		// Judged by the floor, the record in place was history and nothing below it looked at: both never emitted.
		expect(polls(state, [future, row('b', 200), row('a', 100)], 4, 10, 1)).toEqual(['a', 'b']);
	});

	it('a place lost keeps every unseen record news when the start saw the whole list (lost)', () => {
		// The start saw one record, stamped an hour ahead; the search for it met twice on nothing (the bank no longer
		// lists it). Two records were written since, stamped below that floor.
		const future = row('f0', HOUR_AHEAD);
		const state: ListState = {
			memory: { seen: new Map([[future.reference, future.createdMs]]), mirror: [future.reference] },
			lag: null,
			searchFrom: 2,
			searchTo: 2,
			searchMet: true,
			floorMs: future.createdMs + 1,
			unseenIsNew: true,
			paging: { cap: 2, served: 2 },
		};
		// Forgetting it, the floor took both for history: nothing after the start was ever emitted again.
		expect(polls(state, [row('b', 200), row('a', 100)], 4, 10, 2)).toEqual(['a', 'b']);
	});

	it('joins the place\'s page with the page right above the place, not one higher (takeAcross)', () => {
		// The trigger stands on two entries with no record over h31 (lag 41); 41 records were written above them, the
		// oldest, x, right above the place. Two records a page.
		const fresh = Array.from({ length: 40 }, (_, i) => row(`n${i}`, 200 - i));
		const x = row('x', 40);
		const handled = [row('h31', 31), row('h30', 30)];
		const list = [...fresh, x, MALFORMED, MALFORMED, ...handled];
		const state: ListState = {
			memory: { seen: new Map(handled.map((r) => [r.reference, r.createdMs])), mirror: ['', '', 'h31', 'h30'] },
			lag: 41,
			floorMs: T0,
			paging: { cap: 2, served: 2 },
		};
		// The page above counted from the entries over the anchor was a page too high: x, between the two pages, was
		// taken for a remembered entry with no record and never emitted.
		expect(polls(state, list, 8, 10, 2)).toEqual(['x', ...fresh.map((r) => r.reference).reverse()]);
	});

	it('reads on below the deepest record when no page holds it nearer its top than the page just read (check, step 2)', () => {
		// a and b handled, an entry with no record under b, then c, written late; three entries a page.
		const handled = [row('a', 100), row('b', 90)];
		const list = [...handled, MALFORMED, row('c', 80), row('o1', 10), row('o2', 5)];
		const state: ListState = {
			memory: { seen: new Map(handled.map((r) => [r.reference, r.createdMs])), mirror: ['a', 'b', ''] },
			lag: 0,
			floorMs: T0 + 50_000,
			paging: { cap: 3, served: 3 },
		};
		// The page holding b nearest its top is the first one, just read: asked for again, the check saw nothing new
		// and stopped there at every poll; c was never found.
		expect(polls(state, list, 3, 10, 3)).toEqual(['c']);
	});
});

describe('Poll Trigger: the check looks below a run of entries with no record under the deepest record (core/check.ts, underRemembered)', () => {
	it('one record a page: the page right below the run is read as if it showed the run, and a record written late there is found', () => {
		const handled = [row('a', 100), row('b', 90)];
		const list = [...handled, MALFORMED, MALFORMED, row('c', 80), row('o1', 10), row('o0', 5)];
		const state: ListState = {
			memory: { seen: new Map(handled.map((r) => [r.reference, r.createdMs])), mirror: ['a', 'b', '', ''] },
			lag: 0,
			floorMs: T0 + 50_000,
			paging: { cap: 1, served: 1 },
		};
		// Read only from right below b, the check read the first entry of the run and stopped there at every poll: c
		// was never emitted.
		expect(polls(state, list, 4, 6, 1)).toEqual(['c']);
	});
});

describe('Poll Trigger: the check\'s saved bounds stay in the mirror\'s order (core/check.ts, keepInOrder)', () => {
	it('drops a shallower bound that lies under the deeper one, and finds two stretches written late, deepest first', () => {
		// h0…h19 handled (newest first); since, x1 was written late under h5 and x2 under h11: h6…h11 stand one rank
		// deeper than remembered, h12…h19 two. An earlier poll's check saved its deeper bound at h14 (offset 2) and a
		// "shallower" one at h17, under it (the deeper bound had moved up past it, at its offset).
		const handled = Array.from({ length: 20 }, (_, i) => row(`h${i}`, 200 - 2 * i));
		const list = [...handled.slice(0, 6), row('x1', 189), ...handled.slice(6, 12), row('x2', 177), ...handled.slice(12), row('o0', 10)];
		const state = standingAt(handled, T0 + 50_000, 4);
		const mirror = state.memory.mirror;
		state.check = { good: 'h2', bad: seenAt(mirror, 'h14', 2), shallow: seenAt(mirror, 'h17', 2) };
		// Kept, the bound under h14 barred the bound the halving's page showed (h8, one rank deep: a shallower
		// stretch above it), so the halving asked for that page again and stopped, at every poll: neither came.
		expect(polls(state, list, 5, 10, 4)).toEqual(['x2', 'x1']);
	});
});

describe('Poll Trigger: a start that read the whole list bounds no reversal by its floor (start.ts, originMs)', () => {
	it('reports the reversal of a transfer it emitted, stamped under the lone record, stamped in the bank\'s future, that the start saw', async () => {
		const MIN = 60_000;
		const startMs = Date.UTC(2026, 2, 9, 9);
		const transfer = (id: number, createdMs: number) => ({ id, reference: `TRF-${id}`, account: ACCOUNT, kind: 'transfer' as const, amount: '10.00', createdMs, status: 'success' as const });
		const writes: Write[] = [
			// History: the list's only transfer, stamped an hour in the bank's future.
			{ atMs: startMs - 5 * MIN, create: transfer(1, startMs + 60 * MIN) },
			// News: a transfer after the start, successful, then reversed (failed) 10 minutes later.
			{ atMs: startMs + 2 * MIN, create: transfer(2, startMs + 2 * MIN) },
			{ atMs: startMs + 12 * MIN, update: { reference: 'TRF-2', status: 'failed' as const, bankMs: startMs + 12 * MIN } },
		];
		const h = handBuilt({ order: 'created', pageCap: 5, settings: { events: ['TRANSFER_SUCCESS', 'TRANSFER_FAILED'], output: 'event', requestBudget: 10 }, startMs, polls: 20, writes });
		const outcome = await runHistory(h);
		// With the start bounded by its floor (an hour ahead), the failed-transfers list and the reversal's check took
		// TRF-2 for a transfer listed before the start: its success was emitted, its reversal never.
		expect(outcome.violations).toEqual([]);
		expect(outcome.events).toBe(2);
	});
});

