/**
 * Drives one list's follower (nodes/BaasPollTrigger/core/follow.ts) through its tasks (core/run.ts, stepList)
 * synchronously, with no engine and no requests: pages come from `read` (undefined: the poll has no request left,
 * the follower's tasks wait where they stand), records to hand on go to `handOn`, which says how many it took.
 * By default the follower does its whole poll of the list; given `task`, only that task (its value is returned).
 */
import type { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import type { Frame } from '../../nodes/BaasPollTrigger/core/frames';
import type { Slot } from '../../nodes/BaasPollTrigger/core/memory';
import { stepList } from '../../nodes/BaasPollTrigger/core/run';
import type { CoreAnswer, Page } from '../../nodes/BaasPollTrigger/core/types';
import type { Window } from '../../nodes/BaasPollTrigger/core/windows';

export interface CoreServer {
	read: (window: Window, atLeast: number) => Page | undefined;
	handOn: (slots: Slot[]) => number;
}

/** Runs `follower` until it is done or left waiting for a page; returns `task`'s value when given (undefined when left waiting). */
export function runCore(follower: ListFollower, server: CoreServer, task?: Frame): unknown {
	if (task !== undefined) follower.frames.splice(0, follower.frames.length, task);
	let answer: CoreAnswer | undefined;
	for (let steps = 0; steps < 100_000; steps++) {
		const asked = stepList(follower, answer);
		if (asked === undefined) return task?.value;
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
