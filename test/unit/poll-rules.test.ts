/**
 * Rules of the Poll Trigger's core that no engine case isolates, each driven directly (test/support/coreDriver.ts)
 * against a list served by page number from an array (newest first). docs/architecture.md, "The core's rules",
 * names the rule each test holds and what it costs without it.
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import type { ListState } from '../../nodes/BaasPollTrigger/core/types';
import { followList } from '../../nodes/BaasPollTrigger/drive';
import { pageOf, runCore } from '../support/coreDriver';

const T0 = Date.UTC(2026, 1, 1);

type Row = { reference: string; createdMs: number };
const row = (reference: string, second: number): Row => ({ reference, createdMs: T0 + second * 1000 });
const toSlot = (r: Row) => ({ reference: r.reference, createdMs: r.createdMs, record: { reference_number: r.reference } });

/** One poll of `list` on the saved `state` with `budget` requests: what it handed on, and how many requests it made. */
function poll(state: ListState, list: Row[], budget: number) {
	let left = budget;
	const emitted: string[] = [];
	const follower = new ListFollower(state, { nowMs: T0 + 86_400_000, ordered: true, requestsLeft: () => left, bank: { served: 0 } });
	runCore(followList(follower), {
		read: (window, atLeast) => {
			if (left < atLeast) return undefined;
			left--;
			return pageOf(list, window, toSlot);
		},
		handOn: (slots) => {
			emitted.push(...slots.map((slot) => slot.reference as string));
			return slots.length;
		},
	});
	return { emitted, requests: budget - left };
}

/** A state that handled `handled` (newest first) and stands at the list's top. */
function standingAt(handled: Row[], floorMs: number | null, page: number): ListState {
	return {
		memory: { seen: new Map(handled.map((r) => [r.reference, r.createdMs])), mirror: handled.map((r) => r.reference) },
		lag: 0,
		floorMs,
		paging: { cap: page, served: page },
	};
}

describe("Poll Trigger core's rules", () => {
	it('records written late below the deepest handled one, running past its page, are read with the next page as one (withNextPage)', () => {
		// h0…h399, one a second; the trigger handled h100…h399 and its floor is h50: h50…h99 lie below the deepest
		// handled record, after the floor, so they are new (written late), and run past the page that shows h100.
		const all = Array.from({ length: 400 }, (_, i) => row(`h${i}`, i)).reverse();
		const state = standingAt(all.slice(0, 300), T0 + 50_000, 50);
		const { emitted, requests } = poll(state, all, 40);
		expect(emitted).toEqual(Array.from({ length: 50 }, (_, i) => `h${50 + i}`));
		// Without the join: 13 requests (the place moves below them and they are searched for and read upward).
		expect(requests).toBeLessThanOrEqual(3);
	});

	it('a search for the place that goes on at the next poll gallops from where it stood (search.ts, resumed)', () => {
		// 10,000 records written above the place (h0…h99) since the last poll, 2 requests a poll: each poll's search
		// goes on from the rank the last one reached.
		const handled = Array.from({ length: 100 }, (_, i) => row(`h${i}`, i)).reverse();
		const list = [...Array.from({ length: 10_000 }, (_, i) => row(`n${i}`, 1_000 + i)).reverse(), ...handled];
		const state = standingAt(handled, T0, 100);
		let polls = 0;
		do {
			poll(state, list, 2);
			polls++;
		} while (state.lag === null && polls < 20);
		// Found at the 6th poll; starting each poll's search at its saved rank, page by page, it took 9.
		expect(polls).toBeLessThanOrEqual(6);
	});
});
