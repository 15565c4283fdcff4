/**
 * One scheduled poll. Each list the selected events need (collections; transfers; the failed transfers, for
 * reversals) has a follower (core/follow.ts) that asks for pages and hands on records not handled before; this
 * reads what they ask for (drive.ts) within Requests per Poll and the poll's time. The lists take turns at a whole
 * poll's work, in this order:
 *   0. the transfers pending at the start that earlier polls could not read yet, as many pages as the poll leaves
 *      after each list's first page (a transfer that turns final before the scan reads it is lost);
 *   1. the list whose turn it is: its place, its check for records the bank wrote late behind it (older than a
 *      backlog above it), and its backlog, keeping a request for each other list's first page (and one for a
 *      status re-check that is due);
 *   2. each other list's first page (its top when caught up, else the next page of its backlog, or the search for
 *      its place), with the status look-ups its transfers need: new events are seen at every poll;
 *   3. status checks of transfers still pending (due ones, at most 25);
 *   4. the other lists' checks, then the rest of every list's work, a page of each list in turn.
 * A list whose start ran out of requests at an earlier poll is started with what is left after the lists started
 * before it. After a poll that left a list's work for later, the turn passes to the next list that left work (nextTurn), and
 * only then (a quiet poll writes nothing).
 * What was handled is saved with the place: a poll that runs out of requests or time, is rate limited or meets a
 * failure after some progress returns what it emitted (the failure goes to n8n's log) and the next poll goes on
 * from there. A poll that failed before any progress fails as a whole, emitting nothing. A poll that found nothing
 * new leaves the node's static data as it was.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { asNodeError } from '../common/transport/outcome';
import { bankRequest, variantOf } from '../common/transport/request';
import type { ApiVariant } from '../common/transport/routes';
import { startAfresh } from '../common/transport/session';
import { Budget } from './budget';
import { ListFollower } from './core/follow';
import type { ListState } from './core/types';
import type { DrivenList } from './drive';
import { listsInTurn, nextTurn, savedTurn } from './turns';
import { drivenList, inTurns, serve } from './drive';
import type { EmitRun, Emitted } from './emitter';
import { handleFailure, handleListed, listedCost, noteBehind, noticeFinal, recheckPending, warnAbout, warnAboutClock, who } from './emitter';
import type { Stream } from './events';
import { streamsFor, toItem } from './events';
import { bankTimeOf, forget, forgetOld } from './forgetting';
import { boundPending, dueReferences } from './pending';
import { readListPage } from './reader';
import type { PollSettings } from './settings';
import { POLL_LIMITS, requestsToStart } from './settings';
import { assertNotPaused } from './signInPause';
import type { StartRun } from './filters';
import { failuresFilters, listFilters, sinceFilter } from './filters';
import { continuePendingScan } from './pendingScan';
import { failuresFloor, failuresState, startStream } from './start';
import type { StreamState } from './state';
import { listToJson, parseState, scopeOf, stateToJson } from './state';
import type { Slot } from './core/memory';

type Run = EmitRun & StartRun & { served: { served: number } };

interface Followed {
	stream: Stream;
	state: StreamState;
	/** Undefined for a stream started in this poll: its place is read from the next poll on. */
	list?: DrivenList;
}

/**
 * Hands on records one at a time; stops at the first that needs a request the poll no longer has (`handle` says
 * false), or at a failure of the bank, which it returns.
 */
async function handOnEach(slots: Slot[], handle: (slot: Slot) => Promise<boolean>): Promise<{ handed: number; failure?: unknown }> {
	let handed = 0;
	for (const slot of slots) {
		try {
			if (!(await handle(slot))) break;
		} catch (error) {
			return { handed, failure: error };
		}
		handed++;
	}
	return { handed };
}

/**
 * Requests handing a record on may take: a transfer's status look-up (API client), an account's name (dashboard).
 * A list whose records cost one reads a page only when one is left after it, so every page read can hand on.
 */
const handOnCost = (run: Run, stream: Stream) => (run.variant === 'web' || stream.name === 'transfers' ? 1 : 0);

/** A list's follower for this poll: its pages read with `filters`, its records handed to `handle`. */
function driven(run: Run, state: ListState, filters: IDataObject, cost: number, reversals: boolean, handle: (slot: Slot) => Promise<boolean>, costOf: (slot: Slot) => number, observe?: (slots: Slot[]) => void): DrivenList {
	const requestsLeft = () => Math.max(0, run.budget.left - cost);
	// The failed transfers' list: reversals are not ordered against other events, and it gains records by status.
	const follower = new ListFollower(state, { nowMs: run.nowMs, ordered: !reversals, gainsByStatus: reversals, requestsLeft, bank: run.served, costOf });
	const spec = { filters, variant: run.variant };
	const read = async (window: Parameters<DrivenList['read']>[0]) => {
		const page = await readListPage(run, spec, window);
		if (page !== undefined) observe?.(page.slots);
		return page;
	};
	return drivenList(follower, read, async (slots) => await handOnEach(slots, handle), cost);
}

function followStream(run: Run, stream: Stream, state: StreamState): DrivenList {
	const filters = listFilters(run, stream, sinceFilter(state.floorMs));
	return driven(run, state, filters, handOnCost(run, stream), false, async (slot) => await handleListed(run, stream, state, slot), listedCost(run, stream), (slots) => noticeFinal(state, slots, run.nowMs));
}

function finish(run: Run, followed: Followed): StreamState {
	const { state } = followed;
	forgetOld(state);
	const { kept, dropped } = boundPending(state.pending, POLL_LIMITS.maxPending);
	warnAbout(run, dropped);
	state.pending = kept;
	const lookBackMs = (bankTimeOf(state) ?? -Infinity) - POLL_LIMITS.lookBackMs;
	for (const [reference, createdMs] of state.failed) if (createdMs < lookBackMs) state.failed.delete(reference);
	return state;
}

/**
 * When the poll stops starting requests and when they must have ended: n8n 2.41's getPollBudgetMs (5 minutes, 45 s
 * with the durable scheduler; after it n8n abandons the poll and its progress). Each request may take only what
 * is left, so a slow bank cannot make the poll overrun. n8n 1.x gives no such limit.
 */
function pollTime(context: IPollFunctions, nowMs: number): { startBeforeMs: number; endBeforeMs: number } | undefined {
	const budgetMs = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs?.();
	if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs)) return undefined;
	return { startBeforeMs: nowMs + budgetMs * 0.6, endBeforeMs: nowMs + budgetMs * 0.8 };
}


/**
 * Runs one part of the poll, keeping `keep` requests for the parts after it (on top of what an enclosing part keeps;
 * the part itself gets at least one). A part that runs out of requests returns; a failure of the bank (returned
 * or thrown) ends the poll.
 */
async function within(run: Run, keep: number, part: () => Promise<unknown>): Promise<void> {
	const outer = run.budget.reserved;
	run.budget.reserved = outer + Math.max(0, Math.min(keep, run.budget.left - 1));
	let failure: unknown;
	try {
		failure = await part();
	} catch (error) {
		failure = error;
	}
	run.budget.reserved = outer;
	if (failure !== undefined) throw asNodeError(run.context.getNode(), failure);
}

/** The scheduled poll. Returns the new events (oldest first) or null when there are none. */
export async function pollForEvents(context: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][] | null> {
	const nowMs = Date.now();
	// One context serves a whole activation: read the credential as saved now, and forget an earlier refusal.
	startAfresh(context);
	const variant: ApiVariant = variantOf(context);
	await assertNotPaused(context, variant, nowMs);
	return await pollOnce({ context, settings, variant, nowMs, request: bankRequest });
}

/**
 * What one poll needs from outside: n8n's poll context (static data, log, time budget), the settings, which API,
 * n8n's clock, and the one function that asks the bank (the transport's; a model of the bank in the fuzz tests).
 */
export interface PollInput {
	context: IPollFunctions;
	settings: PollSettings;
	variant: ApiVariant;
	nowMs: number;
	request: typeof bankRequest;
}

/**
 * The lists' work in the order of the file's header. The list whose turn it is gets a whole poll's work (its place,
 * its check, its backlog) before the others read more than their place: each part of a list's work needs the
 * others (a page waits for its check, a record for its status look-up), so at a small Requests per Poll a list
 * given one part each poll gets nothing done, and one given all of them every few polls does.
 */
async function followLists(run: Run, followed: Followed[], failures: DrivenList | undefined, turn: number): Promise<void> {
	const mains = followed.filter((f): f is Followed & { list: DrivenList } => f.list !== undefined);
	const lists = listsInTurn(followed, failures);
	const left = () => run.budget.left;
	const due = mains.some((f) => dueReferences(f.state.pending, run.nowMs, 1).length > 0);
	const recheck = async () => {
		for (const f of mains) if (f.state.pending.size > 0) await recheckPending(run, f.stream, f.state, run.budget.left);
	};
	const order = lists.map((_, i) => lists[(turn + i) % lists.length]);
	const [first, ...others] = order;
	// 0. The transfers pending at the start that it could not read yet: the one part of a poll's work that is lost
	// if it waits (each list's place page kept).
	for (const f of mains) await within(run, lists.length, () => continuePendingScan(run, f.state, f.stream));
	// 1. The list in turn, keeping a request for every other list's place page (and a status re-check when due). Not
	// its look-up too: measured and not kept (docs/poll-fuzz-log.md, eighteenth session); the minimum counts it.
	if (first !== undefined) await within(run, others.length + (due ? 1 : 0), () => serve(first, 'climb', left));
	// 2. Every other list's place page, so that new records are seen at every poll.
	for (const [i, list] of others.entries()) await within(run, others.length - 1 - i + (due ? 1 : 0), () => serve(list, 'place', left));
	await within(run, 0, recheck);
	for (const list of others) await within(run, 0, () => serve(list, 'check', left));
	await within(run, 0, () => inTurns(order, left));
}

/** One poll, signed in already: reads the bank through `request` only. */
export async function pollOnce({ context, settings, variant, nowMs, request }: PollInput): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	const saved = (typeof staticData.streams === 'object' && staticData.streams !== null ? staticData.streams : {}) as IDataObject;
	const emitted: Emitted[] = [];
	const run: Run = {
		context,
		settings,
		variant,
		nowMs,
		budget: new Budget(settings.requestBudget, pollTime(context, nowMs)),
		emit: (event) => emitted.push(event),
		request,
		progressed: false,
		malformed: 0,
		served: { served: 0 },
		ahead: { count: 0, mostMs: 0 },
		behind: { count: 0, mostMs: 0 },
		failedThisPoll: new Set(),
	};
	const scope = scopeOf(variant, settings.accountNumber);
	const followed: Followed[] = [];
	// Which list goes first where lists take turns. It moves on after a poll that left a list's work for later (so
	// at a small Requests per Poll every list gets its turn), and not after a poll that had nothing left to do: a
	// quiet poll leaves the node's static data as it was.
	const turn = savedTurn(saved.turn);
	let failures: { state: ListState; list: DrivenList } | undefined;
	let stopped: unknown;
	try {
		const streams = streamsFor(settings).map((stream) => ({ stream, state: parseState(saved[stream.name], scope, nowMs, POLL_LIMITS.pageSize) }));
		for (const { stream, state } of streams) if (state !== undefined) followed.push({ stream, state, list: followStream(run, stream, state) });
		const startNew = async () => {
			const fresh = streams.filter(({ state }) => state === undefined).map(({ stream }) => stream);
			for (const stream of fresh) {
				await within(run, 0, async () => {
					const start = await startStream(run, stream, scope);
					// Out of requests before the start could stand: it is made again at the next poll (nothing is saved).
					if (start === undefined) return;
					run.progressed = true;
					// A new place is read from the next poll on; a backfill begins now.
					followed.push({ stream, state: start.state, list: start.fresh ? undefined : followStream(run, stream, start.state) });
				});
			}
			followed.sort((a, b) => streams.findIndex((s) => s.stream === a.stream) - streams.findIndex((s) => s.stream === b.stream));
		};
		// Lists start at the first poll. A start that ran out of requests is made again after the lists started before
		// it, which leave it what a start needs (one that needs more than a poll has never holds them up).
		const later = followed.length > 0;
		if (!later) await startNew();
		const toStart = later ? streams.reduce((sum, { stream, state }) => sum + (state === undefined ? requestsToStart(stream.name) : 0), 0) : 0;
		const transfers = followed.find((f) => f.stream.name === 'transfers');
		if (transfers !== undefined && settings.events.includes('TRANSFER_FAILED')) {
			const state = failuresState(saved.failures, scope, transfers.state, nowMs);
			const filters = failuresFilters(run, transfers.stream, failuresFloor(transfers.state));
			const cost = handOnCost(run, transfers.stream);
			failures = { state, list: driven(run, state, filters, cost, true, async (slot) => await handleFailure(run, transfers.stream, transfers.state, slot), () => cost) };
		}
		await within(run, toStart, () => followLists(run, followed, failures?.list, turn));
		if (later) await startNew();
	} catch (error) {
		stopped = error;
	}
	if (stopped !== undefined && !run.progressed) throw asNodeError(context.getNode(), stopped);
	if (stopped !== undefined) {
		context.logger.error(
			`${who(context)} stopped this poll early and keeps what it emitted; the next poll goes on from there: ${(stopped as Error).message}`,
		);
	}
	for (const f of followed) noteBehind(run, f.state, f.list?.follower.caughtUp === true);
	warnAboutClock(run);
	const next: IDataObject = { ...saved };
	const turnAfter = nextTurn(listsInTurn(followed, failures?.list), turn);
	if (turnAfter !== turn) next.turn = turnAfter;
	for (const f of followed) next[f.stream.name] = stateToJson(finish(run, f));
	if (failures !== undefined) {
		const transfers = followed.find((f) => f.stream.name === 'transfers') as Followed;
		forget(failures.state, failuresFloor(transfers.state));
		next.failures = listToJson(scope, failures.state);
	} else delete next.failures;
	// Assigned as a whole, and only when something changed: n8n notices (and saves) changes to static data through
	// its top-level properties, and a quiet poll has nothing to save.
	if (JSON.stringify(next) !== JSON.stringify(saved)) staticData.streams = next;
	if (emitted.length === 0) return null;
	const nowIso = new Date(nowMs).toISOString();
	// Oldest first; of one instant, collections before transfers (each list's own order kept: the sort is stable).
	const streamRank = (event: Emitted) => (event.kind === 'COLLECTION_SUCCESS' ? 0 : 1);
	emitted.sort((a, b) => a.createdMs - b.createdMs || streamRank(a) - streamRank(b));
	return [emitted.map((event) => toItem(event.kind, event.record, settings.output, nowIso))];
}
