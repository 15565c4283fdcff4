/**
 * The Poll Trigger's core as a step function (core/run.ts, stepList): where one list stands between two answers is
 * data — its saved state, this poll's, and its stack of frames (core/frames.ts) — with nothing kept anywhere else.
 * Checked by copying the follower after any answer (structuredClone: data only, no function or generator survives
 * it), rebuilding a follower from the copy, and going on with the same answers: it asks for the same pages, hands
 * on the same records and ends in the same state as the follower it was copied from.
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import { stepList } from '../../nodes/BaasPollTrigger/core/run';
import type { CoreAnswer, CoreRequest, FollowOptions, ListState } from '../../nodes/BaasPollTrigger/core/types';
import { listToJson, parseListState } from '../../nodes/BaasPollTrigger/state';
import type { Row } from '../support/coreRules';
import { row, standingAt, T0, toSlot } from '../support/coreRules';
import { pageOf } from '../support/coreDriver';

/** What a follower holds: the list's saved state, this poll's, and its frames. */
const copyOf = (f: ListFollower) => structuredClone({ state: f.state, phase: f.phase, slack: f.slack, search: f.search, placing: f.placing, hold: f.hold, frames: f.frames });

type Copy = ReturnType<typeof copyOf>;

/** A poll of one list on a bank serving `list` (newest first) at most `cap` a page, with `budget` requests. */
function pollOf(list: Row[], cap: number, budget: number) {
	let left = budget;
	const served = { served: 0 };
	const options = (): FollowOptions => ({ nowMs: T0 + 86_400_000, ordered: true, requestsLeft: () => left, bank: served });
	const answerTo = (asked: CoreRequest): CoreAnswer | undefined => {
		if (asked.kind === 'handOn') return asked.slots.length;
		if (left < (asked.atLeast ?? 1)) return undefined;
		left--;
		const page = pageOf(list, asked.window, toSlot, cap);
		for (const slot of page.slots) Object.freeze(slot);
		Object.freeze(page.slots);
		return Object.freeze(page);
	};
	/** Steps `f` from `answer` to the end: what it asked, and a copy after each answer (with the requests left then). */
	const run = (f: ListFollower, answer?: CoreAnswer) => {
		const asked: string[] = [];
		const copies: Array<{ copy: Copy; left: number; served: number; answer?: CoreAnswer }> = [];
		for (let next = stepList(f, answer); next !== undefined; next = stepList(f, answer)) {
			asked.push(next.kind === 'read' ? `read ${next.window.page}/${next.window.size} ${next.need}` : `handOn ${next.slots.map((slot) => slot.reference).join(' ')}`);
			answer = answerTo(next);
			if (answer === undefined) break;
			copies.push({ copy: copyOf(f), left, served: served.served, answer });
		}
		return { asked, copies };
	};
	const restore = (c: { copy: Copy; left: number; served: number }): ListFollower => {
		left = c.left;
		served.served = c.served;
		// A copy of the copy: the follower built on it changes it as it goes.
		const copy = structuredClone(c.copy);
		const f = new ListFollower(structuredClone(copy.state), options());
		Object.assign(f, { state: copy.state, phase: copy.phase, slack: copy.slack, search: copy.search, placing: copy.placing, hold: copy.hold });
		f.frames.splice(0, f.frames.length, ...copy.frames);
		return f;
	};
	return { run, restore, start: (state: ListState) => new ListFollower(state, options()), reset: () => ((left = budget), (served.served = 0)) };
}

describe('Poll Trigger: the core as a step function (core/run.ts)', () => {
	// 60 handled; 3 records written late above h40, 2 above h12 and 2 below h0 (above the history); 40 new records on
	// top: a poll places itself, checks behind the place (measuring, halving, below the deepest record), hands the
	// late records on and climbs the backlog, over a few polls at small Requests per Poll.
	const handled = Array.from({ length: 60 }, (_, i) => row(`h${i}`, i + 1));
	const late = [...[0, 1, 2].map((k) => row(`a${k}`, 41 + 0.1 * (k + 1))), ...[0, 1].map((k) => row(`b${k}`, 13 + 0.1 * (k + 1))), ...[0, 1].map((k) => row(`c${k}`, 0.5 + 0.1 * k))];
	const history = [0, 1, 2].map((k) => row(`old${k}`, -1 - k));
	const fresh = Array.from({ length: 40 }, (_, i) => row(`n${i}`, 100 + i));
	const newestFirst = (rows: Row[]) => [...rows].sort((a, b) => b.createdMs - a.createdMs);
	const lists: Record<string, Row[]> = {
		all: newestFirst([...handled, ...late, ...fresh, ...history]),
		// Only the two written late below h0: the check looks below the deepest record.
		below: newestFirst([...handled, ...late.slice(5), ...history]),
	};
	const tasks = new Set<string>();

	it.each([
		['all', 1, 1, 4],
		['all', 2, 2, 6],
		['all', 3, 3, 60],
		['all', 7, 7, 5],
		['all', 7, 7, 60],
		['all', 50, 50, 60],
		['all', 10, 7, 60],
		['all', 10, 3, 8],
		['all', 10, 1, 30],
		['below', 7, 7, 60],
		['below', 3, 3, 4],
		['below', 10, 1, 30],
	])('goes on from a copy of the follower taken after any answer as the follower itself does (%s; pages of %i asked, %i served, %i requests a poll)', (name, asked, cap, budget) => {
		const poll = pollOf(lists[name as string], cap as number, budget as number);
		let state = standingAt([...handled].reverse(), T0, asked as number);
		for (let p = 0; p < 4; p++) {
			poll.reset();
			const original = poll.start(state);
			const whole = poll.run(original);
			const end = JSON.stringify(listToJson('api|', original.state));
			for (const { copy } of whole.copies) for (const frame of copy.frames) tasks.add(frame.task);
			for (const [k, at] of whole.copies.entries()) {
				const follower = poll.restore(at);
				const resumed = poll.run(follower, at.answer);
				expect({ poll: p, k, asked: resumed.asked }).toEqual({ poll: p, k, asked: whole.asked.slice(k + 1) });
				expect({ poll: p, k, state: JSON.stringify(listToJson('api|', follower.state)) }).toEqual({ poll: p, k, state: end });
			}
			state = parseListState(JSON.parse(end), 'api|', T0 + 86_400_000, asked as number) as ListState;
		}
	});

	it('was checked inside the tasks these lists need: the place and its search, pages joined, the check and below it', () => {
		expect([...tasks]).toEqual(expect.arrayContaining(['followList', 'take', 'takeAcross', 'withNextPage', 'searchStep', 'searchFrom', 'lookForLateRecords', 'checkBehind', 'lookBelow', 'release']));
	});
});
