/**
 * One scheduled poll: per stream, re-check the records still pending, look for reversed transfers, and deliver
 * the records after the place, oldest first, each event once, within the request budget (Requests per Poll).
 * The place is saved with what the poll emitted: a poll that runs out of budget, is rate limited or meets a
 * failure after some progress returns what it emitted (the failure goes to n8n's log) and the next poll goes
 * on from there. A poll that failed before any progress fails as a whole, emitting nothing.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { asNodeError } from '../Baas/transport/outcome';
import { variantOf } from '../Baas/transport/request';
import type { ApiVariant } from '../Baas/transport/routes';
import { startAfresh } from '../Baas/transport/session';
import { Budget, OutOfBudget } from './budget';
import type { StreamCursor } from './cursor';
import { emptyCursor, settle } from './cursor';
import type { Stream } from './events';
import { streamsFor, toItem } from './events';
import { readPage, sinceFilter, topOf } from './listing';
import type { PendingSet } from './pending';
import { boundPending, firstSeen } from './pending';
import type { PollSettings } from './settings';
import { POLL_LIMITS } from './settings';
import { assertNotPaused } from './signInPause';
import type { StreamState } from './state';
import { parseState, scopeOf, stateToJson } from './state';
import type { Emitted, PollRun } from './streamPoll';
import { pollStream } from './streamPoll';

/**
 * Where a new stream starts. With Start From, at that moment (a backfill); otherwise at the newest record the
 * bank lists now (or n8n's clock, if that is earlier: a record stamped in the future must not hide what
 * follows). Transfers still pending then are watched, so their outcome is emitted when final.
 */
async function startingState(run: PollRun, stream: Stream, scope: string, budget: Budget): Promise<{ state: StreamState; fresh: boolean }> {
	const pending: PendingSet = new Map();
	const options = { variant: run.variant, accountNumber: run.settings.accountNumber, pageSize: POLL_LIMITS.pageSize };
	if (stream.name === 'transfers') {
		budget.take();
		const waiting = await readPage(run.context, stream, topOf(POLL_LIMITS.pageSize), {
			...options,
			filters: { status: 'pending', ...sinceFilter(run.nowMs - POLL_LIMITS.lookBackMs) },
		});
		for (const entry of waiting.listed) pending.set(entry.reference, firstSeen(entry.createdMs, run.nowMs, POLL_LIMITS.recheckDelaysMs));
	}
	const startFromMs = run.settings.startFromMs;
	if (startFromMs !== undefined) {
		const state = { scope, cursor: emptyCursor(startFromMs), pending, originMs: startFromMs, failed: new Map() };
		return { state, fresh: false };
	}
	budget.take();
	const { listed } = await readPage(run.context, stream, topOf(POLL_LIMITS.pageSize), options);
	const newestMs = listed.reduce<number | null>((most, entry) => (most === null || entry.createdMs > most ? entry.createdMs : most), null);
	const floorMs = newestMs === null ? null : Math.min(newestMs, run.nowMs);
	const cursor: StreamCursor = {
		floorMs,
		newestMs,
		seen: new Map(listed.filter((entry) => floorMs !== null && entry.createdMs >= floorMs).map((entry) => [entry.reference, entry.createdMs])),
	};
	// Transfers listed at activation (at or before the floor) are history: their reversals are not this trigger's.
	const originMs = (floorMs ?? run.nowMs) + 1;
	return { state: { scope, cursor, pending, originMs, failed: new Map() }, fresh: true };
}

function warnAboutClock(run: PollRun): void {
	const minutes = (ms: number) => Math.round(ms / 60_000);
	const name = `BaaS (Polling) Trigger "${run.context.getNode().name}"`;
	if (run.ahead.count > 0) {
		run.context.logger.warn(
			`${name}: ${run.ahead.count} record(s) stamped up to ${minutes(run.ahead.mostMs)} min ahead of n8n's clock. Emitted once; the bank's clock (or its time zone) is off. The trigger's place stays at n8n's clock, so nothing after them is missed.`,
		);
	}
	if (run.behind.count > 0) {
		run.context.logger.warn(
			`${name}: ${run.behind.count} new record(s) stamped up to ${minutes(run.behind.mostMs)} min before the previous poll. The bank's clock runs behind n8n's, or it wrote them late; records more than ${minutes(POLL_LIMITS.overlapMs)} min late could be missed.`,
		);
	}
}

function finish(run: PollRun, state: StreamState, nowMs: number): StreamState {
	const { kept, dropped } = boundPending(state.pending, POLL_LIMITS.maxPending);
	for (const reference of dropped) {
		run.context.logger.warn(
			`BaaS (Polling) Trigger "${run.context.getNode().name}" stopped watching ${reference}: more than ${POLL_LIMITS.maxPending} records are pending. Check its outcome with Transfer → Get Status.`,
		);
	}
	return {
		...state,
		// While a backlog is being read, pages below the newest record are not delivered yet: the floor waits.
		cursor: settle(state.cursor, nowMs, { ...POLL_LIMITS, reading: state.walk !== undefined }),
		pending: kept,
		// Only a poll that caught up tells when "new" records should be stamped from.
		lastPollMs: state.walk === undefined ? nowMs : undefined,
	};
}

/**
 * When a poll stops starting requests: halfway through the time n8n gives it (n8n 2.41's getPollBudgetMs: 5
 * minutes, 45 s with the durable scheduler; after it n8n abandons the poll and its progress), so the requests
 * under way can end and what was emitted is kept. n8n 1.x gives no such limit.
 */
function pollDeadline(context: IPollFunctions, nowMs: number): number | undefined {
	const budgetMs = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs?.();
	return typeof budgetMs === 'number' && Number.isFinite(budgetMs) ? nowMs + budgetMs / 2 : undefined;
}

/** The scheduled poll. Returns the new events (oldest first) or null when there are none. */
export async function pollForEvents(context: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][] | null> {
	const nowMs = Date.now();
	// One context serves a whole activation: read the credential as saved now, and forget an earlier refusal.
	startAfresh(context);
	const variant: ApiVariant = variantOf(context);
	await assertNotPaused(context, variant, nowMs);
	const staticData = context.getWorkflowStaticData('node');
	const savedStreams = (typeof staticData.streams === 'object' && staticData.streams !== null ? staticData.streams : {}) as IDataObject;
	const emitted: Emitted[] = [];
	const run: PollRun = {
		context,
		settings,
		variant,
		nowMs,
		emit: (event) => emitted.push(event),
		progressed: false,
		ahead: { count: 0, mostMs: 0 },
		behind: { count: 0, mostMs: 0 },
	};
	const scope = scopeOf(variant, settings.accountNumber);
	const budget = new Budget(settings.requestBudget, context.getNode(), pollDeadline(context, nowMs));
	const streams = streamsFor(settings);
	const states = new Map<string, StreamState>();
	let stopped: unknown;
	for (const [index, stream] of streams.entries()) {
		const share = budget.share(streams.length - index);
		try {
			let state = parseState(savedStreams[stream.name], scope, nowMs);
			if (state === undefined) {
				const start = await startingState(run, stream, scope, share);
				run.progressed = true;
				states.set(stream.name, start.state);
				if (start.fresh) continue;
				state = start.state;
			}
			states.set(stream.name, state);
			await pollStream(run, stream, state, share);
		} catch (error) {
			if (error instanceof OutOfBudget) continue;
			stopped = error;
			break;
		}
	}
	if (stopped !== undefined && !run.progressed) throw asNodeError(context.getNode(), stopped);
	if (stopped !== undefined) {
		context.logger.error(
			`BaaS (Polling) Trigger "${context.getNode().name}" stopped this poll early and keeps what it emitted; the next poll goes on from there: ${(stopped as Error).message}`,
		);
	}
	warnAboutClock(run);
	const next: IDataObject = { ...savedStreams };
	for (const [name, state] of states) next[name] = stateToJson(finish(run, state, nowMs));
	// Assigned as a whole: n8n notices changes to static data through its top-level properties.
	staticData.streams = next;
	if (emitted.length === 0) return null;
	const nowIso = new Date(nowMs).toISOString();
	emitted.sort((a, b) => a.createdMs - b.createdMs);
	return [emitted.map((event) => toItem(event.kind, event.record, settings.output, nowIso))];
}
