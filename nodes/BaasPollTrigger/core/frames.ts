/**
 * Every task of the core and what its frame holds while it is in progress (steps.ts): where one list stands in a
 * poll is a stack of these, plain data. `at` names the point of the task's flow it stands at; the other fields are
 * what it was given and what it has read or found so far. Each task's steps are in the file named beside it.
 */
import type { Taken } from './follow';
import type { Reading, Slot } from './memory';
import type { FrameBase } from './steps';
import type { Bounds } from './offsets';
import type { CheckProgress, Need, Page } from './types';
import type { Window } from './windows';

/** A page read and whether it ends the list (the last page a check read). */
export type Read = { page: Page; endsList: boolean };

/** One list's poll (flow.ts): its place, the check behind it, then its backlog, in up to three rounds. */
export interface FollowListFrame extends FrameBase {
	task: 'followList';
	at: 'start' | 'first' | 'round' | 'stepping' | 'stepped' | 'roundEnd' | 'looked';
	round: number;
	steps: number;
}

/** One page toward the newest record, then the check when it has not run in this poll (flow.ts). */
export interface StepFrame extends FrameBase {
	task: 'step';
	at: 'start' | 'advanced' | 'checked';
}

/** One page toward the newest record, without the check (flow.ts). */
export interface AdvanceFrame extends FrameBase {
	task: 'advance';
	at: 'start' | 'taken' | 'end';
	rank?: number;
}

/** Reads a page (or takes one read) and hands on what it places (take.ts). */
export interface TakeFrame extends FrameBase {
	task: 'take';
	at: 'start' | 'read' | 'judge' | 'ends' | 'judged' | 'above' | 'unjoined' | 'below' | 'reading' | 'handed';
	window: Window;
	page?: Page;
	checking: boolean;
	extend: boolean;
	endsKnown?: boolean;
	/** How the page reads against the memory, and whether it ends the list. */
	judged?: { reading: Reading; endsList: boolean };
	boundary?: number;
	/** What it hands on (page positions), and the place as it stood before. */
	deliver?: number[];
	expectedHead?: number | null;
	oldHead?: string;
}

/** Whether a short page is where the list ends (pages.ts). */
export interface EndsListFrame extends FrameBase {
	task: 'endsList';
	at: 'start' | 'top' | 'next' | 'longer';
	page: Page;
	need: Need;
}

/** The place's page with the pages above it, when the cap divides the place's rank (across.ts). */
export interface TakeAcrossFrame extends FrameBase {
	task: 'takeAcross';
	at: 'start' | 'above' | 'aboveRead' | 'place' | 'placeRead' | 'taken';
	window: Window;
	lag: number;
	most: number;
	p: number;
	pages: Page[];
	owed: number;
}

/** Whether the list still ends at rank `end` (across.ts). */
export interface EndStillAtFrame extends FrameBase {
	task: 'endStillAt';
	at: 'start' | 'read';
	end: number;
	size: number;
	need?: Need;
}

/** A page and the page after it, as one (across.ts). */
export interface WithNextPageFrame extends FrameBase {
	task: 'withNextPage';
	at: 'start' | 'next' | 'ends';
	page: Page;
	need?: Need;
	next?: Page;
}

/** A page with the pages above it, read until one shows a record (across.ts). */
export interface WithPageAboveFrame extends FrameBase {
	task: 'withPageAbove';
	at: 'start' | 'up' | 'upRead' | 'verify' | 'again' | 'endHolds';
	page: Page;
	need?: Need;
	above: Slot[];
	start: number;
	p: number;
}

/** The check for records written late behind the place, once a poll (check.ts). */
export interface LookForLateRecordsFrame extends FrameBase {
	task: 'lookForLateRecords';
	at: 'start' | 'checked' | 'end';
}

/** The page held for the check, handed on once it ended or paused (check.ts). */
export interface ReleaseFrame extends FrameBase {
	task: 'release';
	at: 'start' | 'taken';
	ended: boolean;
}

/** The rounds of one check: choose a page, read it, learn what it shows (check.ts). */
export interface CheckBehindFrame extends FrameBase {
	task: 'checkBehind';
	at: 'round' | 'sentinel' | 'choose' | 'below' | 'sameEnds' | 'taken' | 'measureEnds';
	progress: CheckProgress;
	/** References whose offset a page of this check showed. */
	measured: Set<string>;
	/** Records whose probe showed no mirrored record, and how many times. */
	blind: Map<string, number>;
	last?: Read;
	lastWindow?: string;
	round: number;
	/** This round's view, as it began: the cap, the deepest record and the deepest in place, the bounds. */
	cap: number;
	deepest: number;
	from: number;
	bounds: Bounds;
	/** The page this round reads: whether it measures the deepest record, which record it probes. */
	measuring?: true;
	probing?: string;
	wasDeepest?: string;
	taken?: Taken;
}

/** Whether the entry seen right below the deepest record is still there (below.ts). */
export interface SentinelHoldsFrame extends FrameBase {
	task: 'sentinelHolds';
	at: 'start' | 'read' | 'ends';
	deepest: number;
	rank: number;
}

/** What lies below the deepest mirrored record, down to the floor (below.ts). */
export interface LookBelowFrame extends FrameBase {
	task: 'lookBelow';
	at: 'start' | 'ends' | 'judge' | 'settled' | 'mirrored';
	deepest: number;
	last?: Read;
	endsList?: boolean;
}

/** After a page that did not show the place: where it lies against the page, then the search (search.ts). */
export interface SearchFromFrame extends FrameBase {
	task: 'searchFrom';
	at: 'start' | 'judged' | 'end';
	taken: Taken;
	rank: number;
}

/** One page of the search for the place (search.ts). */
export interface SearchStepFrame extends FrameBase {
	task: 'searchStep';
	at: 'start' | 'last' | 'lastDone' | 'probe' | 'taken' | 'end';
	cap: number;
	lo: number;
}

/** The page holding the list's last record, with nothing mirrored (search.ts). */
export interface TakeLastFrame extends FrameBase {
	task: 'takeLast';
	at: 'start' | 'aboveEnd' | 'window' | 'read' | 'joined' | 'taken';
	lo: number;
	window?: Window;
	page?: Page;
}

/** The page above entries with no record that end the list, seen by an earlier poll (search.ts). */
export interface TakeAboveEndFrame extends FrameBase {
	task: 'takeAboveEnd';
	at: 'start' | 'read' | 'endHolds' | 'taken';
	lo: number;
	above: number;
	cap: number;
	window: Window;
	page?: Page;
}

/** Where the place lies against a page that did not show it (search.ts). */
export interface JudgeFrame extends FrameBase {
	task: 'judge';
	at: 'start' | 'ends' | 'judged';
	taken: Taken;
	below: boolean;
	endsList: boolean;
}

export type Frame =
	| FollowListFrame
	| StepFrame
	| AdvanceFrame
	| TakeFrame
	| EndsListFrame
	| TakeAcrossFrame
	| EndStillAtFrame
	| WithNextPageFrame
	| WithPageAboveFrame
	| LookForLateRecordsFrame
	| ReleaseFrame
	| CheckBehindFrame
	| SentinelHoldsFrame
	| LookBelowFrame
	| SearchFromFrame
	| SearchStepFrame
	| TakeLastFrame
	| TakeAboveEndFrame
	| JudgeFrame;

export const followList = (): FollowListFrame => ({ task: 'followList', at: 'start', round: 0, steps: 0 });
export const step = (): StepFrame => ({ task: 'step', at: 'start' });
export const advance = (): AdvanceFrame => ({ task: 'advance', at: 'start' });
export const take = (window: Window, page?: Page, checking = false, extend = true, endsKnown?: boolean): TakeFrame => ({ task: 'take', at: 'start', window, page, checking, extend, endsKnown });
export const endsList = (page: Page, need: Need): EndsListFrame => ({ task: 'endsList', at: 'start', page, need });
export const takeAcross = (window: Window): TakeAcrossFrame => ({ task: 'takeAcross', at: 'start', window, lag: 0, most: 1, p: 0, pages: [], owed: 0 });
export const endStillAt = (end: number, size: number, need?: Need): EndStillAtFrame => ({ task: 'endStillAt', at: 'start', end, size, need });
export const withNextPage = (page: Page, need?: Need): WithNextPageFrame => ({ task: 'withNextPage', at: 'start', page, need });
export const withPageAbove = (page: Page, need?: Need): WithPageAboveFrame => ({ task: 'withPageAbove', at: 'start', page, need, above: [], start: page.start, p: page.window.page - 1 });
export const lookForLateRecords = (): LookForLateRecordsFrame => ({ task: 'lookForLateRecords', at: 'start' });
export const release = (ended: boolean): ReleaseFrame => ({ task: 'release', at: 'start', ended });
export const checkBehind = (progress: CheckProgress, last: Read | undefined): CheckBehindFrame => ({
	task: 'checkBehind',
	at: 'round',
	progress,
	measured: new Set(),
	blind: new Map(),
	last,
	round: 0,
	cap: 0,
	deepest: -1,
	from: -1,
	bounds: {},
});
export const sentinelHolds = (deepest: number): SentinelHoldsFrame => ({ task: 'sentinelHolds', at: 'start', deepest, rank: 0 });
export const lookBelow = (deepest: number, last: Read | undefined): LookBelowFrame => ({ task: 'lookBelow', at: 'start', deepest, last });
export const searchFrom = (taken: Taken, rank: number): SearchFromFrame => ({ task: 'searchFrom', at: 'start', taken, rank });
export const searchStep = (): SearchStepFrame => ({ task: 'searchStep', at: 'start', cap: 0, lo: 0 });
export const takeLast = (lo: number): TakeLastFrame => ({ task: 'takeLast', at: 'start', lo });
export const takeAboveEnd = (lo: number, above: number): TakeAboveEndFrame => ({ task: 'takeAboveEnd', at: 'start', lo, above, cap: 0, window: { page: 1, size: 1 } });
export const judge = (taken: Taken): JudgeFrame => ({ task: 'judge', at: 'start', taken, below: false, endsList: false });
