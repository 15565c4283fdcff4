/**
 * The poll's small I/O loop around the core: each list's follower (core/follow.ts) asks for pages and for records
 * to hand on (core/run.ts, stepList); this reads what it asks for, within Requests per Poll and the poll's time, in
 * the order the poll chooses (poll.ts). The core never makes a request; this never decides which page.
 */
import type { Slot } from './core/memory';
import type { ListFollower } from './core/follow';
import { stepList } from './core/run';
import type { CoreAnswer, CoreRequest, Need, Page } from './core/types';
import type { Window } from './core/windows';

/** Requests of one list's core in one poll at most: a guard against a core that would ask forever. */
const MAX_STEPS = 2_000;

const ORDER: Record<Need, number> = { place: 0, check: 1, climb: 2 };

/** One list the poll follows: its follower, what it asks for now, and how its pages are read and its records handed on. */
export interface DrivenList {
	follower: ListFollower;
	/** What the core asks for now; undefined once it has nothing more to do in this poll. */
	asked?: CoreRequest;
	steps: number;
	/** Requests handing one record on may take (a status look-up): kept after each page read. */
	handOnCost: number;
	/** Reads a page; undefined when the poll may make no more requests. */
	read: (window: Window) => Promise<Page | undefined>;
	/**
	 * Hands on records oldest first; returns how many it handed on (it stops at the first it cannot) and the bank's
	 * failure that stopped it, if one did (the core takes in what was handed on, then the failure ends the poll).
	 */
	handOn: (slots: Slot[]) => Promise<{ handed: number; failure?: unknown }>;
}

/** A list's follower for this poll, primed: the first thing it asks for is known. */
export function drivenList(follower: ListFollower, read: DrivenList['read'], handOn: DrivenList['handOn'], handOnCost = 0): DrivenList {
	const list: DrivenList = { follower, steps: 0, handOnCost, read, handOn };
	answer(list, undefined);
	return list;
}

function answer(list: DrivenList, value: CoreAnswer | undefined): void {
	list.asked = stepList(list.follower, value);
}

/**
 * Serves `list` while it asks for pages needed no later than `upTo` and `left()` requests allow each (a request
 * the core wants only with more left, `atLeast`, waits). Records to hand on are handed on at once. Returns after
 * `one` page when asked to (lists taking turns). Returns the bank's failure, which ends the poll, if one came.
 */
export async function serve(list: DrivenList, upTo: Need, left: () => number, one = false): Promise<unknown> {
	// A list that could not hand a record on does no more in this poll: its tasks wait where they stand until the poll ends.
	while (list.asked !== undefined && list.steps < MAX_STEPS && !list.follower.stopped) {
		const asked = list.asked;
		if (asked.kind === 'handOn') {
			const { handed, failure } = await list.handOn(asked.slots);
			answer(list, handed);
			if (failure !== undefined) return failure;
			continue;
		}
		if (ORDER[asked.need] > ORDER[upTo] || left() < (asked.atLeast ?? 1) + list.handOnCost) return undefined;
		let page: Page | undefined;
		try {
			page = await list.read(asked.window);
		} catch (error) {
			return error;
		}
		// No request left in the poll's count or time: the list waits for the next poll.
		if (page === undefined) return undefined;
		list.steps++;
		answer(list, page);
		if (one) return undefined;
	}
	return undefined;
}

/** Lists served one page at a time in turn, until none can go on. */
export async function inTurns(lists: DrivenList[], left: () => number): Promise<unknown> {
	for (;;) {
		const before = lists.map((list) => list.steps);
		for (const list of lists) {
			const failure = await serve(list, 'climb', left, true);
			if (failure !== undefined) return failure;
		}
		if (lists.every((list, i) => list.steps === before[i])) return undefined;
	}
}
