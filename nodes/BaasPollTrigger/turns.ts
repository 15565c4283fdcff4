/**
 * Which list goes first in a poll (poll.ts, followLists): the lists take turns at a whole poll's work, and the turn
 * is saved with the lists. It passes on only after a poll that left work, so a quiet poll writes nothing.
 */
import type { DrivenList } from './drive';

/** A list that has work left for a later poll: not up to its newest record, not checked behind it, or holding records. */
export const unfinished = (list: DrivenList | undefined): boolean => list !== undefined && !list.follower.settled;

/** The turn is kept below this number, which every count of lists (1 to 8) divides: the list in turn stays the same. */
const TURN_CYCLE = 840;

/** The lists that take turns, in the order the turn counts them: the events' lists, then the failed transfers'. */
export const listsInTurn = (followed: Array<{ list?: DrivenList }>, failures: DrivenList | undefined): DrivenList[] => [
	...followed.flatMap((f) => (f.list !== undefined ? [f.list] : [])),
	...(failures !== undefined ? [failures] : []),
];

/** The saved turn, or 0 for a trigger that saved none (or something else). */
export const savedTurn = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);

/**
 * The turn after a poll: the next list that left work for later, so a backlog on one list is not kept waiting
 * while lists with nothing left take their turns (they read their place page every poll regardless); unchanged
 * when no list left work (a quiet poll writes nothing).
 */
export function nextTurn(lists: DrivenList[], turn: number): number {
	for (let step = 1; step <= lists.length; step++) if (unfinished(lists[(turn + step) % lists.length])) return (turn + step) % TURN_CYCLE;
	return turn;
}
