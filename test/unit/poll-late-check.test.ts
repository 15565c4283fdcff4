/**
 * The Poll Trigger's check for records the bank wrote late, behind the place (follow.ts): against a list served by
 * page number from an array (newest first), it hands on what was written late at several depths oldest first, the
 * deepest stretch before a shallower one, whether or not a stretch is longer than a page.
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import type { ListState } from '../../nodes/BaasPollTrigger/core/types';
import { pageOf, runCore } from '../support/coreDriver';

const PAGE = 50;
const T0 = Date.UTC(2026, 1, 1);

type Row = { reference_number: string; created_at: string };
/** A record created `second` seconds after T0, with `part` ms to put late ones between two others. */
const row = (reference: string, second: number, part = 0): Row => ({ reference_number: reference, created_at: new Date(T0 + second * 1000 + part).toISOString() });

/**
 * A list follower that handled `count` records (h0 oldest … newest at the top) and stands at the list's top. Each
 * poll has a new follower on the same saved state, as each n8n poll does, with `budget` requests.
 */
function caughtUp(count: number, pageSize = PAGE, firstBudget = 40, handOnTakesARequest = false) {
	let budget = firstBudget;
	const handled = Array.from({ length: count }, (_, i) => row(`h${i}`, i));
	const list: Row[] = [...handled].reverse();
	const state: ListState = {
		memory: { seen: new Map(handled.map((r) => [r.reference_number, Date.parse(r.created_at)])), mirror: list.map((r) => r.reference_number) },
		lag: 0,
		floorMs: T0,
		paging: { cap: pageSize, served: pageSize },
	};
	const emitted: string[] = [];
	const pages: number[] = [];
	let follower: ListFollower;
	const toSlot = (r: Row) => ({ reference: r.reference_number, createdMs: Date.parse(r.created_at), record: r });
	/** Writes `late` records late, just above handled record h`below` (created between it and the next). */
	const writeLate = (below: number, late: number) => {
		const at = list.findIndex((r) => r.reference_number === `h${below}`);
		list.splice(at, 0, ...Array.from({ length: late }, (_, k) => row(`late${below}-${late - 1 - k}`, below, 1 + late - 1 - k)));
	};
	/** One poll: a new follower on the saved state, as each n8n poll has, with `budget` requests. */
	const poll = async () => {
		let left = budget;
		// As the poll does (poll.ts): a list whose records cost a request reads a page only with one left for that.
		const cost = handOnTakesARequest ? 1 : 0;
		follower = new ListFollower(state, { nowMs: T0 + 86_400_000, ordered: true, requestsLeft: () => Math.max(0, left - cost), bank: { served: 0 } });
		runCore(follower, {
			read: (window, atLeast) => {
				if (left < atLeast + cost) return undefined;
				left--;
				pages.push(window.page);
				return pageOf(list, window, toSlot);
			},
			handOn: (slots) => {
				let handed = 0;
				for (const slot of slots) {
					// As a transfer's status look-up does.
					if (handOnTakesARequest && left-- <= 0) break;
					emitted.push(slot.reference as string);
					handed++;
				}
				return handed;
			},
		});
		return follower;
	};
	/** Writes `n` new records at the top of the list (`name`0 oldest), `afterSecond` seconds after the handled ones. */
	const writeNew = (n: number, name = 'new', afterSecond = 0) => list.unshift(...Array.from({ length: n }, (_, k) => row(`${name}${n - 1 - k}`, count + afterSecond + n - 1 - k)));
	/** Requests of the polls from now on. */
	const setBudget = (requests: number) => {
		budget = requests;
	};
	return { emitted, pages, state, writeLate, writeNew, poll, setBudget };
}

const lateRefs = (below: number, late: number) => Array.from({ length: late }, (_, k) => `late${below}-${k}`);

describe('Poll Trigger check for records written late', () => {
	it('hands on two stretches at different depths deepest first, each oldest first', async () => {
		const { emitted, writeLate, poll } = caughtUp(400);
		writeLate(320, 3); // shallow: just below the top page
		writeLate(60, 2); // deep
		await poll();
		expect(emitted).toEqual([...lateRefs(60, 2), ...lateRefs(320, 3)]);
	});

	it('hands on a deep record before a shallower stretch longer than a page', async () => {
		const { emitted, writeLate, poll } = caughtUp(400);
		writeLate(300, 70);
		writeLate(150, 1);
		await poll();
		expect(emitted).toEqual([...lateRefs(150, 1), ...lateRefs(300, 70)]);
	});

	it('hands on new records above the place only after a record written late behind it', async () => {
		const { emitted, writeLate, writeNew, poll } = caughtUp(400);
		writeNew(3);
		writeLate(100, 1);
		await poll();
		expect(emitted).toEqual([...lateRefs(100, 1), 'new0', 'new1', 'new2']);
	});

	it('reads nothing but the place and the deepest record when nothing was written late', async () => {
		const { emitted, pages, poll } = caughtUp(400);
		const follower = await poll();
		expect(emitted).toEqual([]);
		expect(pages).toHaveLength(2);
		expect(follower.phase).toBe('checked');
	});

	it('ends when every page holding the deepest record ends with it (it reads the page below)', async () => {
		// Pages of 3, 4 or 5 (the sizes asked for at a cap of 5) all end at rank 119.
		const { emitted, pages, poll } = caughtUp(120, 5);
		const follower = await poll();
		expect(emitted).toEqual([]);
		expect(follower.phase).toBe('checked');
		expect(pages.length).toBeLessThanOrEqual(3);
	});

	it('at a budget too small for the check to end in one poll, new records wait for it (the late record first), never for good', async () => {
		const { emitted, writeLate, writeNew, poll } = caughtUp(400, PAGE, 2);
		writeNew(3);
		writeLate(100, 1); // finding it takes more than the one request a poll leaves after its first page
		let polls = 0;
		while (emitted.length < 4 && polls < 20) {
			await poll();
			polls++;
		}
		// The check goes on from where each poll left it, one page a poll: it ends, and nothing newer came first.
		expect(emitted).toEqual([...lateRefs(100, 1), 'new0', 'new1', 'new2']);
		expect(polls).toBeLessThanOrEqual(16);
	});

	it('holds new records for the check in a poll whose place took every request (the check goes on at the next poll)', async () => {
		// One request: the page that finds the place, nothing left for the check. Handed on at once (as before this
		// rule), the new records came before the one written late (fuzz: 26 of 100,000 seeds in both list shapes).
		const { emitted, writeLate, writeNew, poll, setBudget } = caughtUp(400, PAGE, 1);
		writeNew(3);
		writeLate(100, 1);
		await poll();
		expect(emitted).toEqual([]);
		setBudget(40);
		await poll();
		expect(emitted).toEqual([...lateRefs(100, 1), 'new0', 'new1', 'new2']);
	});

	it('hands new records on when the check had no request in the last poll that held them either (checkStarved)', async () => {
		// A budget that never leaves the check a request: waiting would only delay them (MAX_HELD_POLLS polls each time).
		const { emitted, state, writeNew, poll } = caughtUp(400, PAGE, 1);
		writeNew(3);
		await poll();
		expect(emitted).toEqual([]);
		expect(state.checkStarved).toBe(true);
		await poll();
		expect(emitted).toEqual(['new0', 'new1', 'new2']);
	});

	it('after MAX_HELD_POLLS polls held for one check, hands new records on at once until that check ends (never stuck, and no new wait of 16)', async () => {
		const { emitted, state, writeNew, poll, setBudget } = caughtUp(400, PAGE, 1);
		// Where a check that held new records for 16 polls stands, unfinished (its progress saved).
		state.check = { good: 'h399' };
		state.heldPolls = 16;
		writeNew(1);
		await poll();
		expect(emitted).toEqual(['new0']);
		// Counted until the check ends: reset here, the next poll would hold new records for 16 polls again.
		expect(state.heldPolls).toBe(16);
		writeNew(2, 'more', 10);
		await poll();
		expect(emitted).toEqual(['new0', 'more0', 'more1']);
		setBudget(40);
		const follower = await poll();
		expect(follower.phase).toBe('checked');
		expect(state.heldPolls).toBeUndefined();
	});

	it('hands on records that each take a request (a transfer and its status) at a budget of two', async () => {
		// A page, the check behind the place and one status look-up do not fit in two requests: waiting for the check
		// at every poll would hold the transfer for ever.
		const { emitted, writeNew, poll } = caughtUp(400, PAGE, 2, true);
		writeNew(1);
		for (let i = 0; i < 4; i++) await poll();
		expect(emitted).toEqual(['new0']);
	});
});
