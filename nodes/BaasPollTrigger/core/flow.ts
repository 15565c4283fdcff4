/**
 * One list's poll, as tasks (steps.ts): `followList` reads toward the newest record (its place first), checks behind
 * the place for records written late, then reads the rest of any backlog; a check may move the place back down, so
 * the backlog is read again. `step` is one page toward the newest record and the check when it has not run in this
 * poll; `advance` is the page alone.
 */
import type { AdvanceFrame, FollowListFrame, StepFrame } from './frames';
import { advance, lookForLateRecords, searchFrom, searchStep, step, take, takeAcross } from './frames';
import type { Taken } from './follow';
import { firstValid } from './memory';
import { placeMove } from './moves';
import { clearSearch } from './search';
import type { Steps } from './steps';
import { call, done, go } from './steps';

/** Steps of one round of a list's poll at most: a guard against a core that would step forever. */
const MAX_STEPS = 2_000;

/** Rounds of a poll of one list: the backlog read, then the check behind the place (which may move it down). */
const ROUNDS = 3;

export const followListSteps: Steps<FollowListFrame> = {
	start: () => call(advance(), 'first'),
	first: (f) => (f.stopped ? go('round') : call(lookForLateRecords(), 'round')),
	round: (f, t) => {
		if (t.round >= ROUNDS || f.stopped) return done();
		t.steps = 0;
		return go('stepping');
	},
	stepping: (f, t) => (t.steps < MAX_STEPS && !f.caughtUp && !f.waiting && !f.stopped ? call(step(), 'stepped') : go('roundEnd')),
	stepped: (_f, t) => {
		t.steps++;
		return go('stepping');
	},
	roundEnd: (f) => (f.stopped ? go('looked') : call(lookForLateRecords(), 'looked')),
	looked: (f, t) => {
		if (f.caughtUp) return done();
		t.round++;
		return go('round');
	},
};

/**
 * One page toward the newest record. Once the place is known in a poll, records written late behind it are looked
 * for first: they are older than the backlog above it.
 */
export const stepSteps: Steps<StepFrame> = {
	start: () => call(advance(), 'advanced'),
	advanced: (f) => (!f.checkRan && !f.stopped ? call(lookForLateRecords(), 'checked') : done()),
	checked: () => done(),
};

/** One page toward the newest record, without the check for records written late (poll.ts takes turns with it). */
export const advanceSteps: Steps<AdvanceFrame> = {
	start: (f, t) => {
		const { state } = f;
		if (f.hold.page !== undefined) return call(lookForLateRecords(), 'end');
		if (firstValid(state.memory) === undefined && state.lag !== null) {
			// Nothing handled to stand on yet (or no record after the floor so far): look from the top again.
			state.lag = null;
			clearSearch(state);
		}
		const move = placeMove(state, f.placed, f.slack);
		if (move === undefined) return call(searchStep(), 'end');
		t.rank = move.rank;
		return call(move.across ? takeAcross(move.window) : take(move.window), 'taken');
	},
	taken: (_f, t, answer) => ((answer as Taken).outcome === 'unplaced' ? call(searchFrom(answer as Taken, t.rank as number), 'end') : done()),
	end: () => done(),
};
