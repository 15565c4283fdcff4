/**
 * Helpers of the core's rule tests (test/unit/poll-rules.test.ts, poll-cycles.test.ts): a list served by page number
 * from an array (newest first), one poll of a list's follower on a saved state, and states to start from.
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import type { Slot } from '../../nodes/BaasPollTrigger/core/memory';
import type { ListState } from '../../nodes/BaasPollTrigger/core/types';
import { pageOf, runCore } from './coreDriver';
import type { History } from './pollFuzz/history';

export const T0 = Date.UTC(2026, 1, 1);

export type Row = { reference: string; createdMs: number };
export const row = (reference: string, second: number): Row => ({ reference, createdMs: T0 + second * 1000 });
export const toSlot = (r: Row) => ({ reference: r.reference, createdMs: r.createdMs, record: { reference_number: r.reference } });

/** A history built by hand: one poll a minute from `startMs`, the bank's clock n8n's, no faults, the documented shape. */
export function handBuilt(h: Pick<History, 'order' | 'pageCap' | 'settings' | 'startMs' | 'writes'> & { polls: number }): History {
	const polls = Array.from({ length: h.polls }, (_, i) => ({ atMs: h.startMs + i * 60_000 }));
	return { seed: 0, shape: 'documented', statusFailRate: 0, latencyMs: 100, offset0Ms: 0, driftPerMs: 0, random: () => 0.5, features: [], ...h, polls };
}

/**
 * One poll of `list` on the saved `state` with `budget` requests, the bank serving at most `cap` records a page (each
 * entry as `slotOf` makes it: a malformed one for some; `reversals`: the list is the failed transfers'): what it handed
 * on, and how many requests it made. `afterRead`: what the bank does after the poll's `reads`-th read (writes into
 * `list` between two reads of one poll).
 */
export function poll(state: ListState, list: Row[], budget: number, cap = Infinity, slotOf: (r: Row) => Slot = toSlot, reversals = false, afterRead?: (reads: number) => void) {
	let left = budget;
	const emitted: string[] = [];
	const follower = new ListFollower(state, { nowMs: T0 + 86_400_000, ordered: !reversals, gainsByStatus: reversals, requestsLeft: () => left, bank: { served: 0 } });
	runCore(follower, {
		read: (window, atLeast) => {
			if (left < atLeast) return undefined;
			left--;
			const page = pageOf(list, window, slotOf, cap);
			afterRead?.(budget - left);
			return page;
		},
		handOn: (slots) => {
			emitted.push(...slots.map((slot) => slot.reference as string));
			return slots.length;
		},
	});
	return { emitted, requests: budget - left };
}

/** A state that handled `handled` (newest first) and stands at the list's top. */
export function standingAt(handled: Row[], floorMs: number | null, page: number): ListState {
	return {
		memory: { seen: new Map(handled.map((r) => [r.reference, r.createdMs])), mirror: handled.map((r) => r.reference) },
		lag: 0,
		floorMs,
		paging: { cap: page, served: page },
	};
}
