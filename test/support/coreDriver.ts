/**
 * Drives a piece of the Poll Trigger's core (a generator: nodes/BaasPollTrigger/core/types.ts) synchronously, with
 * no engine and no requests: pages come from `read` (undefined: the poll has no request left, the core waits for
 * good), records to hand on go to `handOn`, which says how many it took. Returns the core's result, or undefined
 * when it was left waiting.
 */
import type { Slot } from '../../nodes/BaasPollTrigger/core/memory';
import type { Core, CoreAnswer, Page } from '../../nodes/BaasPollTrigger/core/types';
import type { Window } from '../../nodes/BaasPollTrigger/core/windows';

export interface CoreServer {
	read: (window: Window, atLeast: number) => Page | undefined;
	handOn: (slots: Slot[]) => number;
}

export function runCore<T>(core: Core<T>, server: CoreServer): T | undefined {
	let answer: CoreAnswer | undefined;
	for (let steps = 0; steps < 100_000; steps++) {
		const next = core.next(answer as CoreAnswer);
		if (next.done === true) return next.value;
		const asked = next.value;
		if (asked.kind === 'handOn') {
			answer = server.handOn(asked.slots);
			continue;
		}
		const page = server.read(asked.window, asked.atLeast ?? 1);
		if (page === undefined) return undefined;
		answer = page;
	}
	throw new Error('the core asked for 100,000 things in one run');
}

/** A page of `list` (newest first) as a bank serving at most `cap` records a page answers `window`. */
export function pageOf<T>(list: T[], window: Window, toSlot: (entry: T) => Slot, cap = Infinity): Page {
	const size = Math.min(window.size, cap);
	const start = (window.page - 1) * size;
	const slots = list.slice(start, start + size).map(toSlot);
	return { window, start: (window.page - 1) * window.size, slots, short: slots.length < window.size };
}
