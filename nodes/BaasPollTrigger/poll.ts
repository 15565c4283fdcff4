/**
 * One scheduled poll. Each list the selected events need (collections; transfers; the failed transfers, for
 * reversals) is followed from where the trigger stands up to the bank's newest record (follow.ts), and what it
 * hands on becomes events (emitter.ts), remembered so each is emitted once (memory.ts). Within Requests per Poll,
 * in turns:
 *   1. one page of each stream's list (its top when caught up, else the next page of its backlog), and the status
 *      look-ups the transfers found there need: new events are seen at every poll, however large a backlog;
 *   2. one page of the failed transfers, and status checks of transfers still pending (at most half of what is
 *      left), taking turns going first from one poll to the next;
 *   3. each list's check for records the bank wrote late behind its place (older than a backlog above it), the
 *      list going first taking turns from one poll to the next, so that at a small Requests per Poll every list's
 *      check gets requests; a check left unfinished goes on at the next poll (follow.ts);
 *   4. the rest of each backlog, a page of each list in turn, then the checks of lists caught up only now.
 * What was handled is saved with the place: a poll that runs out of requests or time, is rate limited or meets a
 * failure after some progress returns what it emitted (the failure goes to n8n's log) and the next poll goes on
 * from there. A poll that failed before any progress fails as a whole, emitting nothing.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { asNodeError } from '../shared/transport/outcome';
import { bankRequest, variantOf } from '../shared/transport/request';
import type { ApiVariant } from '../shared/transport/routes';
import { startAfresh } from '../shared/transport/session';
import { Budget, OutOfBudget } from './budget';
import type { EmitRun, Emitted } from './emitter';
import { handleFailure, handleListed, noticeFinal, recheckPending, warnAbout, who } from './emitter';
import type { Stream } from './events';
import { streamsFor, toItem } from './events';
import type { ListState } from './follow';
import { ListFollower } from './follow';
import { emptyMemory, trim } from './memory';
import { boundPending, dueReferences, firstSeen } from './pending';
import type { ReadRun } from './reader';
import { ListReader } from './reader';
import type { PollSettings } from './settings';
import { POLL_LIMITS } from './settings';
import { assertNotPaused } from './signInPause';
import type { StreamState } from './state';
import { defaultPaging, listToJson, parseListState, parseState, scopeOf, stateToJson } from './state';

type Run = EmitRun & ReadRun;

const DAY_MS = 86_400_000;

/**
 * The list's date filter: from the day before the floor's UTC day, so a bank whose days are in another time zone
 * still lists the floor. It bounds the list's bottom only; the trigger reads from the top.
 */
function sinceFilter(floorMs: number | null): IDataObject {
	return floorMs === null ? {} : { start_date: new Date(floorMs - DAY_MS).toISOString().slice(0, 10) };
}

function listFilters(run: Run, stream: Stream, extra: IDataObject): IDataObject {
	return { ...stream.filters, ...extra, ...(run.settings.accountNumber ? { account_number: run.settings.accountNumber } : {}) };
}

/** The failed transfers since `sinceMs`, newest first: where reversals appear. */
const failuresFilters = (run: Run, transfers: Stream, sinceMs: number) => listFilters(run, transfers, { status: 'failed', ...sinceFilter(sinceMs) });

/** How long the trigger looks back for reversals: the look-back, and never before it started. */
const failuresFloor = (transfers: StreamState, nowMs: number) => Math.max(transfers.originMs, nowMs - POLL_LIMITS.lookBackMs);

interface Followed {
	stream: Stream;
	state: StreamState;
	follower: ListFollower;
}

/**
 * A stream the trigger has no place in yet. With Start From, it reads up from that moment (a backfill);
 * otherwise the records the bank lists now are history and the trigger starts above the newest of them.
 * Transfers still pending then are watched, so their outcome is emitted when final.
 */
async function startStream(run: Run, stream: Stream, scope: string): Promise<{ state: StreamState; fresh: boolean }> {
	const pending: StreamState['pending'] = new Map();
	if (stream.name === 'transfers') {
		const waiting = new ListReader(run, { filters: listFilters(run, stream, { status: 'pending', ...sinceFilter(run.nowMs - POLL_LIMITS.lookBackMs) }), variant: run.variant }, defaultPaging(POLL_LIMITS.pageSize));
		for (const slot of (await waiting.read({ page: 1, size: POLL_LIMITS.pageSize })).slots) {
			if (slot.reference !== undefined) pending.set(slot.reference, firstSeen(slot.createdMs as number, run.nowMs, POLL_LIMITS.recheckDelaysMs));
		}
	}
	const base = { scope, pending, failed: new Map<string, number>(), memory: emptyMemory(), paging: defaultPaging(POLL_LIMITS.pageSize) };
	const startFromMs = run.settings.startFromMs;
	if (startFromMs !== undefined) return { state: { ...base, lag: null, floorMs: startFromMs, originMs: startFromMs }, fresh: false };
	const reader = new ListReader(run, { filters: listFilters(run, stream, {}), variant: run.variant }, base.paging);
	const { slots } = await reader.read({ page: 1, size: POLL_LIMITS.pageSize });
	const times = slots.filter((slot) => slot.createdMs !== undefined).map((slot) => slot.createdMs as number);
	for (const slot of slots) if (slot.reference !== undefined) base.memory.seen.set(slot.reference, slot.createdMs as number);
	base.memory.mirror = slots.map((slot) => slot.reference ?? '');
	// History: what is listed now. A record written later with an older created_at lies below these (a late one).
	const floorMs = times.length === 0 ? null : Math.min(...times) + 1;
	// Transfers listed at activation are history: their reversals are not this trigger's.
	const originMs = times.length === 0 ? run.nowMs : Math.min(Math.max(...times), run.nowMs) + 1;
	return { state: { ...base, lag: 0, floorMs, originMs }, fresh: true };
}

function follow(run: Run, stream: Stream, state: StreamState): ListFollower {
	const reader = new ListReader(run, { filters: listFilters(run, stream, sinceFilter(state.floorMs)), variant: run.variant }, state.paging);
	return new ListFollower(
		state,
		reader,
		async (slot) => await handleListed(run, stream, state, slot),
		run.nowMs,
		(slots) => noticeFinal(state, slots, run.nowMs),
	);
}

function followFailures(run: Run, transfers: Followed, saved: unknown, scope: string): ListFollower {
	const floorMs = failuresFloor(transfers.state, run.nowMs);
	const state: ListState = parseListState(saved, scope, run.nowMs, POLL_LIMITS.pageSize) ?? {
		// From the trigger's start (or the look-back): failures before it are not this trigger's to report.
		memory: emptyMemory(),
		lag: null,
		floorMs,
		paging: defaultPaging(POLL_LIMITS.pageSize),
	};
	const reader = new ListReader(run, { filters: failuresFilters(run, transfers.stream, floorMs), variant: run.variant }, state.paging);
	return new ListFollower(state, reader, async (slot) => await handleFailure(run, transfers.stream, transfers.state, slot), run.nowMs, undefined, false);
}

function warnAboutClock(run: Run): void {
	const minutes = (ms: number) => Math.round(ms / 60_000);
	const name = who(run.context);
	if (run.ahead.count > 0) {
		run.context.logger.warn(
			`${name}: ${run.ahead.count} record(s) stamped up to ${minutes(run.ahead.mostMs)} min ahead of n8n's clock. Emitted once; the bank's clock (or its time zone) is off.`,
		);
	}
	if (run.behind.count > 0) {
		run.context.logger.warn(
			`${name}: ${run.behind.count} new record(s) stamped up to ${minutes(run.behind.mostMs)} min before the previous poll. The bank's clock runs behind n8n's, or it wrote them late; records written more than ${minutes(POLL_LIMITS.overlapMs)} min late could be missed.`,
		);
	}
	if (run.malformed > 0) {
		run.context.logger.warn(
			`${name} skipped ${run.malformed} malformed entr${run.malformed === 1 ? 'y' : 'ies'} in the bank's lists (null, or without reference_number or a valid created_at)`,
		);
	}
}

/** The newest created_at a list handled, bounded by n8n's clock (a record stamped in the future must not age the rest). */
function newestHandled(list: ListState, nowMs: number): number | null {
	let newest: number | null = null;
	for (const ms of list.memory.seen.values()) if (newest === null || ms > newest) newest = ms;
	return newest === null ? null : Math.min(newest, nowMs);
}

/** Where the check for records written late looks back to: the overlap behind the newest record handled. */
function sinceOf(list: ListState, nowMs: number): number | null {
	const newest = newestHandled(list, nowMs);
	return newest === null ? null : newest - POLL_LIMITS.overlapMs;
}

/** Bounds what a list remembers; the floor rises above whatever it forgets. */
function forget(list: ListState, forgetBeforeMs: number | null): void {
	const floorMs = trim(list.memory, { forgetBeforeMs, maxSeen: POLL_LIMITS.maxSeen, keepTop: POLL_LIMITS.keepTop });
	if (floorMs !== null) list.floorMs = Math.max(list.floorMs ?? -Infinity, floorMs);
}

function finish(run: Run, followed: Followed, caughtUp: boolean): StreamState {
	const { state } = followed;
	// While a backlog is read, records not yet handed on lie above the floor, and until a check for records written
	// late has looked behind the place, they may lie there: it waits (only the count bound holds).
	forget(state, caughtUp && followed.follower.checked ? sinceOf(state, run.nowMs) : null);
	const { kept, dropped } = boundPending(state.pending, POLL_LIMITS.maxPending);
	warnAbout(run, dropped);
	state.pending = kept;
	for (const [reference, createdMs] of state.failed) if (createdMs < run.nowMs - POLL_LIMITS.lookBackMs) state.failed.delete(reference);
	// Only a poll that caught up tells when "new" records should be stamped from.
	state.lastPollMs = caughtUp ? run.nowMs : undefined;
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

/** Runs one part of the poll, keeping `keep` requests for the parts after it; running out ends only this part. */
async function within(run: Run, keep: number, part: () => Promise<unknown>): Promise<void> {
	run.budget.reserved = Math.max(0, Math.min(keep, run.budget.left - 1));
	try {
		await part();
	} catch (error) {
		if (!(error instanceof OutOfBudget)) throw asNodeError(run.context.getNode(), error);
	} finally {
		run.budget.reserved = 0;
	}
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
		budget: new Budget(settings.requestBudget, context.getNode(), pollTime(context, nowMs)),
		emit: (event) => emitted.push(event),
		request,
		progressed: false,
		malformed: 0,
		served: 0,
		ahead: { count: 0, mostMs: 0 },
		behind: { count: 0, mostMs: 0 },
	};
	const scope = scopeOf(variant, settings.accountNumber);
	const turn = typeof saved.turn === 'number' ? saved.turn + 1 : 0;
	const followed: Followed[] = [];
	let failures: ListFollower | undefined;
	let stopped: unknown;
	try {
		for (const stream of streamsFor(settings)) {
			const state = parseState(saved[stream.name], scope, nowMs, POLL_LIMITS.pageSize);
			if (state !== undefined) {
				followed.push({ stream, state, follower: follow(run, stream, state) });
				continue;
			}
			const start = await startStream(run, stream, scope);
			run.progressed = true;
			const entry = { stream, state: start.state, follower: follow(run, stream, start.state) };
			followed.push(entry);
			// A new place is read from the next poll on; a backfill begins now.
			if (start.fresh) (entry as { done?: boolean }).done = true;
		}
		const transfers = followed.find((f) => f.stream.name === 'transfers');
		if (transfers !== undefined && settings.events.includes('TRANSFER_FAILED')) failures = followFailures(run, transfers, saved.failures, scope);
		const fresh = (f: Followed) => (f as { done?: boolean }).done === true;
		const mains = followed.filter((f) => !fresh(f));
		const due = mains.some((f) => dueReferences(f.state.pending, nowMs, 1).length > 0);
		const recheck = async () => {
			for (const f of mains) {
				if (f.state.pending.size > 0) await recheckPending(run, f.stream, f.state, Math.max(1, Math.floor(run.budget.left / 2)));
			}
		};
		// 2 comes in turns: the failed transfers first at one poll, the checks of pending transfers at the next, so a
		// small Requests per Poll lets both through.
		const failed = async () => await failures?.advance();
		const [first, second] = turn % 2 === 0 ? [failed, recheck] : [recheck, failed];
		const firstWants = turn % 2 === 0 ? failures !== undefined : due;
		// 1. A page of each stream (and the status look-ups it needs), keeping a request for each stream still to come
		// and for the first part of 2.
		for (const [i, f] of mains.entries()) await within(run, mains.length - 1 - i + (firstWants ? 1 : 0), () => f.follower.advance());
		await within(run, 0, first);
		await within(run, 0, second);
		// 3. Each list's check for records written late, the list going first taking turns.
		const lists = [...mains.map((f) => f.follower), ...(failures ? [failures] : [])];
		const checking = lists.map((_, i) => lists[(turn + i) % lists.length]);
		for (const list of checking) await within(run, 0, () => list.lookForLateRecords());
		// 4. The backlogs, a page of each list in turn; then records written late. A check may move a place back down
		// to records written behind it: the backlogs are read again.
		await within(run, 0, async () => {
			for (let round = 0; round < 3; round++) {
				const goingOn = (l: ListFollower) => !l.caughtUp && !l.waiting;
				for (let behind = lists.filter(goingOn); behind.length > 0; behind = behind.filter(goingOn)) {
					for (const list of behind) await list.step();
				}
				for (const list of lists) await list.lookForLateRecords();
				if (lists.every((l) => l.caughtUp)) break;
			}
		});
	} catch (error) {
		if (!(error instanceof OutOfBudget)) stopped = error;
	}
	if (stopped !== undefined && !run.progressed) throw asNodeError(context.getNode(), stopped);
	if (stopped !== undefined) {
		context.logger.error(
			`${who(context)} stopped this poll early and keeps what it emitted; the next poll goes on from there: ${(stopped as Error).message}`,
		);
	}
	warnAboutClock(run);
	const next: IDataObject = { ...saved, turn };
	for (const f of followed) next[f.stream.name] = stateToJson(finish(run, f, f.follower.caughtUp));
	if (failures !== undefined) {
		const transfers = followed.find((f) => f.stream.name === 'transfers') as Followed;
		forget(failures.state, failures.caughtUp && failures.checked ? failuresFloor(transfers.state, nowMs) : null);
		next.failures = listToJson(scope, failures.state);
	} else delete next.failures;
	// Assigned as a whole: n8n notices changes to static data through its top-level properties.
	staticData.streams = next;
	if (emitted.length === 0) return null;
	const nowIso = new Date(nowMs).toISOString();
	emitted.sort((a, b) => a.createdMs - b.createdMs);
	return [emitted.map((event) => toItem(event.kind, event.record, settings.output, nowIso))];
}
