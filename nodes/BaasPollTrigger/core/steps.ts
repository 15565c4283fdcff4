/**
 * How the core's work is written: as tasks whose progress is data. A task in progress is a frame: which task
 * (`task`), where in it it stands (`at`, a named point of its flow) and what it has read or found so far (its other
 * fields). Each task is a table of steps, one for each point of its flow: a step takes the frame and the answer to
 * what the task last asked (a page, how many records were handed on, or what a task it called found) and says what
 * comes next — ask the poll for something, call another task, go on at another point, or be done with a value.
 * Steps make no request and read no clock; the follower's stack of frames (ListFollower.frames) is where one list
 * stands in a poll, and run.ts turns the answers into the next request.
 */
import type { ListFollower } from './follow';
import type { CoreRequest, Need } from './types';
import { needOf } from './types';
import type { Window } from './windows';

/** A task in progress: what every frame holds (each task's frame adds what it read or found so far). */
export interface FrameBase {
	task: string;
	at: string;
	/** What the task was done with, once it is done (run.ts). */
	value?: unknown;
}

/** What a step says comes next. */
export type Outcome<At extends string = string> =
	| { kind: 'ask'; request: CoreRequest; then: At }
	| { kind: 'call'; frame: FrameBase; then: At }
	| { kind: 'go'; then: At }
	| { kind: 'done'; value: unknown };

/** One point of a task's flow: the frame, and the answer to what it asked last (undefined after `go`). */
export type Step<F extends FrameBase> = (f: ListFollower, frame: F, answer: unknown) => Outcome<F['at']>;

/** A task: a step for each point of its flow. */
export type Steps<F extends FrameBase> = { [At in F['at']]: Step<F> };

/** Asks the poll for a page of the list (`need`: what it is for; `atLeast`: only with that many requests left). */
export const read = <At extends string>(window: Window, need: Need, then: At, atLeast?: number): Outcome<At> => ({
	kind: 'ask',
	request: { kind: 'read', window, need, ...(atLeast !== undefined ? { atLeast } : {}) },
	then,
});

/** Asks the poll to hand records on, oldest first (answered with how many it handed on). */
export const handOn = <At extends string>(request: Extract<CoreRequest, { kind: 'handOn' }>, then: At): Outcome<At> => ({ kind: 'ask', request, then });

/** Runs `frame` (a task from its start); its value is the answer at `then`. */
export const call = <At extends string>(frame: FrameBase, then: At): Outcome<At> => ({ kind: 'call', frame, then });

/** Goes on at `then`, with no answer. */
export const go = <At extends string>(then: At): Outcome<At> => ({ kind: 'go', then });

/** The task is done: `value` is the answer of the task that called it. */
export const done = (value?: unknown): Outcome<never> => ({ kind: 'done', value });

/** What a page is for: `need` when the task says, else what the list's phase needs (ListFollower.phase). */
export const needFor = (f: ListFollower, need?: Need): Need => need ?? needOf(f.phase);
