/**
 * The core as a step function: `stepList(follower, answer)` takes the answer to what one list's follower asked last
 * (a page, or how many records were handed on; nothing at the start of a poll), steps its tasks (frames.ts, the
 * innermost first) until one needs the poll again, and returns what it needs next — a page to read, records to hand
 * on — or undefined once the list has nothing more to do in this poll. Where the list stands between two answers is
 * data: its saved state, this poll's (ListFollower) and its stack of frames. No request, no clock, no exception: the
 * poll (drive.ts) reads what it asks for, and a fuzz test can drive it with no engine around it.
 */
import { takeAcrossSteps, endStillAtSteps, withNextPageSteps, withPageAboveSteps } from './across';
import { lookBelowSteps, sentinelHoldsSteps } from './below';
import { checkBehindSteps, lookForLateRecordsSteps, releaseSteps } from './check';
import type { ListFollower } from './follow';
import { advanceSteps, followListSteps, stepSteps } from './flow';
import type { Frame } from './frames';
import { endsListSteps, notePage } from './pages';
import { judgeSteps, searchFromSteps, searchStepSteps, takeAboveEndSteps, takeLastSteps } from './search';
import type { Step } from './steps';
import { takeSteps } from './take';
import type { CoreAnswer, CoreRequest, Page } from './types';

/** Every task's steps, by the task's name (Frame.task). */
const TASKS: { [Task in Frame['task']]: { [At in Extract<Frame, { task: Task }>['at']]: Step<Extract<Frame, { task: Task }>> } } = {
	followList: followListSteps,
	step: stepSteps,
	advance: advanceSteps,
	take: takeSteps,
	endsList: endsListSteps,
	takeAcross: takeAcrossSteps,
	endStillAt: endStillAtSteps,
	withNextPage: withNextPageSteps,
	withPageAbove: withPageAboveSteps,
	lookForLateRecords: lookForLateRecordsSteps,
	release: releaseSteps,
	checkBehind: checkBehindSteps,
	sentinelHolds: sentinelHoldsSteps,
	lookBelow: lookBelowSteps,
	searchFrom: searchFromSteps,
	searchStep: searchStepSteps,
	takeLast: takeLastSteps,
	takeAboveEnd: takeAboveEndSteps,
	judge: judgeSteps,
};

/** The step of `frame`'s task at the point it stands at. */
const stepOf = (frame: Frame) => (TASKS[frame.task] as Record<string, Step<Frame>>)[frame.at];

/**
 * Steps `f`'s tasks with `answer` (to what it asked last) until one asks the poll for something: returns that, or
 * undefined when the list is done for this poll.
 */
export function stepList(f: ListFollower, answer?: CoreAnswer): CoreRequest | undefined {
	// Every page read tells how the bank pages its list.
	if (typeof answer === 'object') {
		notePage(f.state.paging, f.options, answer as Page);
		// A page read while the check runs is the check's: it goes on, so new records may wait for it (take.ts).
		if (f.phase === 'check') f.state.checkStarved = undefined;
	}
	let input: unknown = answer;
	for (;;) {
		const frame = f.frames[f.frames.length - 1];
		if (frame === undefined) return undefined;
		const outcome = stepOf(frame)(f, frame, input);
		input = undefined;
		if (outcome.kind === 'done') {
			f.frames.pop();
			frame.value = outcome.value;
			input = outcome.value;
			continue;
		}
		frame.at = outcome.then;
		if (outcome.kind === 'ask') return outcome.request;
		if (outcome.kind === 'call') f.frames.push(outcome.frame as Frame);
	}
}
