/**
 * One list's phase in one poll (ListFollower.phase, core/types.ts): it only moves forward, the flags it replaced
 * (placed, the check ran, the check ended, records may be handed on, stopped) are read from it, and a list that
 * could not hand a record on makes no more request in that poll (drive.ts).
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import type { Slot } from '../../nodes/BaasPollTrigger/core/memory';
import type { ListState, Page } from '../../nodes/BaasPollTrigger/core/types';
import { drivenList, serve } from '../../nodes/BaasPollTrigger/drive';
import { pageOf } from '../support/coreDriver';

const T0 = Date.UTC(2026, 1, 1);
const slotOf = (reference: string, second: number): Slot => ({ reference, createdMs: T0 + second * 1000, record: { reference_number: reference } });

/** A list that handled h0 … h9 (h9 newest) and stands at its top. */
function standing(): ListState {
	const handled = Array.from({ length: 10 }, (_, i) => `h${i}`);
	return {
		memory: { seen: new Map(handled.map((reference, i) => [reference, T0 + i * 1000])), mirror: [...handled].reverse() },
		lag: 0,
		floorMs: T0,
		paging: { cap: 5, served: 5 },
	};
}

const follower = (state: ListState, ordered = true) =>
	new ListFollower(state, { nowMs: T0 + 86_400_000, ordered, requestsLeft: () => 10, bank: { served: 0 } });

describe('Poll Trigger: one list\'s phase in one poll', () => {
	it('moves only forward: a phase passed stays passed, and what the old flags said is read from it', () => {
		const f = follower(standing());
		expect(f.phase).toBe('place');
		expect([f.placed, f.checkRan, f.handsOn, f.stopped]).toEqual([false, false, false, false]);
		f.enter('climb');
		expect([f.placed, f.checkRan, f.handsOn]).toEqual([true, false, false]);
		f.enter('check');
		f.enter('climb');
		expect(f.phase).toBe('check');
		expect([f.checkRan, f.handsOn]).toEqual([true, false]);
		f.enter('checkPaused');
		expect(f.handsOn).toBe(true);
		f.enter('place');
		expect(f.phase).toBe('checkPaused');
		expect(f.settled).toBe(false);
		f.enter('stopped');
		f.enter('checked');
		expect(f.phase).toBe('stopped');
		expect(f.caughtUp).toBe(false);
	});

	it('hands records on without waiting for the check where their order is not promised (a list of reversals)', () => {
		expect(follower(standing(), false).handsOn).toBe(true);
		expect(follower(standing(), true).handsOn).toBe(false);
	});

	it('a list that could not hand a record on makes no more request in that poll, and hands it on at the next', async () => {
		const state = standing();
		// Eight records written since, above h9: more than a page of five, so the list is read upward in several pages.
		const list = [...Array.from({ length: 8 }, (_, i) => slotOf(`n${7 - i}`, 100 + 7 - i)), ...state.memory.mirror.map((r) => slotOf(r, Number(r.slice(1))))];
		const reads: Page[] = [];
		const handed: string[] = [];
		let lookUpsLeft = 1;
		let readsAtStop: number | undefined;
		const poll = async () => {
			const f = follower(state, false);
			const driven = drivenList(
				f,
				async (window) => {
					const page = pageOf(list, window, (slot) => slot);
					reads.push(page);
					return page;
				},
				async (slots) => {
					// As a transfer whose status look-up finds no request left: one record, then none.
					let count = 0;
					for (const slot of slots) {
						if (lookUpsLeft-- <= 0) break;
						handed.push(slot.reference as string);
						count++;
					}
					if (count < slots.length) readsAtStop ??= reads.length;
					return { handed: count };
				},
			);
			await serve(driven, 'climb', () => 10);
			return f;
		};
		const first = await poll();
		expect(first.phase).toBe('stopped');
		expect(handed).toEqual(['n0']);
		// Nothing read after the record that could not be handed on.
		expect(readsAtStop).toBeDefined();
		expect(reads.length).toBe(readsAtStop);
		lookUpsLeft = Infinity;
		await poll();
		expect(handed).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7']);
	});
});
