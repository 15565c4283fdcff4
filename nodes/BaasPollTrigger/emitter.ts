/**
 * What a record handed on by a list means: an event to emit (in the BaaS Trigger's shape), a transfer to watch
 * until its outcome is final, a reversal, or nothing. Reading the lists is follow.ts's; remembering is memory.ts's.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { asNodeError } from '../common/transport/outcome';
import type { BankContext, bankRequest } from '../common/transport/request';
import type { ApiVariant } from '../common/transport/routes';
import type { EventKind } from '../common/events';
import type { Budget } from './budget';
import type { NoRequestLeft } from './budget';
import { endsThePoll, NO_REQUEST_LEFT } from './budget';
import type { Stream } from './events';
import { eventKindOf, outcomeOf } from './events';
import type { Slot } from './core/memory';
import { historyFloor } from './core/memory';
import { dueReferences, firstSeen, reschedule } from './pending';
import type { PollSettings } from './settings';
import { POLL_LIMITS } from './settings';
import { inWebhookShape } from './shape';
import type { StreamState } from './state';
import type { StatusAnswer } from './status';
import { currentStatus } from './status';

export interface Emitted {
	kind: EventKind;
	record: IDataObject;
	createdMs: number;
}

export interface EmitRun {
	context: IPollFunctions;
	/** The one function that asks the bank. */
	request: typeof bankRequest;
	settings: PollSettings;
	variant: ApiVariant;
	nowMs: number;
	budget: Budget;
	emit: (event: Emitted) => void;
	/** Set once any request of the poll got an answer: from then on a failure ends the poll keeping its progress. */
	progressed: boolean;
	/** Records stamped further ahead of n8n's clock than the overlap, and the furthest ahead (ms). */
	ahead: { count: number; mostMs: number };
	/** Lists whose newest new record was stamped more than the overlap before n8n's clock, and by how much at most (ms). */
	behind: { count: number; mostMs: number };
	/**
	 * Transfers the failed transfers' list showed failed in this poll before the transfers' list handled them: a page
	 * of that list read earlier in the poll (held for its check) may still show them successful.
	 */
	failedThisPoll: Set<string>;
}

export const who = (context: Pick<BankContext, 'getNode'>) => `BaaS (Polling) Trigger "${context.getNode().name}"`;

/**
 * The status of one record; undefined when it could not be read (it stays pending, with a warning), NO_REQUEST_LEFT
 * when the poll may not ask.
 */
async function statusOf(run: EmitRun, stream: Stream, reference: string): Promise<StatusAnswer | undefined | NoRequestLeft> {
	const timeoutMs = run.budget.take();
	if (timeoutMs === NO_REQUEST_LEFT) return NO_REQUEST_LEFT;
	try {
		const answer = await currentStatus(run.request, run.context, stream, reference, run.variant, timeoutMs);
		run.progressed = true;
		return answer;
	} catch (error) {
		if (endsThePoll(error)) throw asNodeError(run.context.getNode(), error);
		run.context.logger.warn(
			`${who(run.context)} could not read the status of ${reference} (${(error as Error).message}); it stays pending and is checked again at a later poll`,
		);
		return undefined;
	}
}

/**
 * Emits a final record (in the webhook's shape) and forgets it as pending; false while it is still pending,
 * NO_REQUEST_LEFT (nothing done) when its shape needs a request the poll may not make.
 */
async function conclude(run: EmitRun, stream: Stream, state: StreamState, reference: string, record: IDataObject, createdMs: number): Promise<boolean | NoRequestLeft> {
	const outcome = outcomeOf(record.status);
	if (outcome === 'pending') return false;
	const kind = eventKindOf(stream.name, outcome);
	if (kind !== undefined && run.settings.events.includes(kind)) {
		const shaped = await inWebhookShape(run.request, run.context, run.variant, stream, record, run.budget, run.nowMs);
		if (shaped === NO_REQUEST_LEFT) return NO_REQUEST_LEFT;
		run.emit({ kind, record: shaped, createdMs });
	}
	if (kind === 'TRANSFER_FAILED') state.failed.set(reference, createdMs);
	state.pending.delete(reference);
	return true;
}

function noteClock(run: EmitRun, state: StreamState, createdMs: number): void {
	const aheadMs = createdMs - run.nowMs;
	if (aheadMs > POLL_LIMITS.overlapMs) {
		run.ahead.count++;
		run.ahead.mostMs = Math.max(run.ahead.mostMs, aheadMs);
	}
	state.newestNewMs = Math.max(state.newestNewMs ?? -Infinity, createdMs);
}

/**
 * A list read up to its newest record whose newest new record is stamped more than the overlap before n8n's clock:
 * the bank's clock runs behind, or it writes records late (a warning only: what is read never depends on n8n's clock).
 */
export function noteBehind(run: EmitRun, state: StreamState, caughtUp: boolean): void {
	const behindMs = state.newestNewMs === undefined ? 0 : run.nowMs - state.newestNewMs;
	if (!caughtUp || behindMs <= POLL_LIMITS.overlapMs) return;
	run.behind.count++;
	run.behind.mostMs = Math.max(run.behind.mostMs, behindMs);
}

export function warnAboutClock(run: EmitRun & { malformed: number }): void {
	const minutes = (ms: number) => Math.round(ms / 60_000);
	const name = who(run.context);
	if (run.ahead.count > 0) {
		run.context.logger.warn(
			`${name}: ${run.ahead.count} record(s) stamped up to ${minutes(run.ahead.mostMs)} min ahead of n8n's clock. Emitted once; the bank's clock (or its time zone) is off.`,
		);
	}
	if (run.behind.count > 0) {
		run.context.logger.warn(
			`${name}: the newest new record is stamped ${minutes(run.behind.mostMs)} min before n8n's clock. The bank's clock runs behind n8n's, or it writes records late; records written more than ${minutes(POLL_LIMITS.overlapMs)} min late could be missed.`,
		);
	}
	if (run.malformed > 0) {
		run.context.logger.warn(
			`${name} skipped ${run.malformed} malformed entr${run.malformed === 1 ? 'y' : 'ies'} in the bank's lists (null, or without reference_number or a valid created_at)`,
		);
	}
}

/**
 * A record of a stream's list not handled before: emitted when final, else watched as pending. False (nothing
 * done) when handling it needs a request the poll may not make.
 */
export async function handleListed(run: EmitRun, stream: Stream, state: StreamState, shown: Slot): Promise<boolean> {
	const reference = shown.reference as string;
	const slot = asOfThisPoll(run, shown);
	const createdMs = slot.createdMs as number;
	// Stamped before Start From: not an event of a backfill. A bank listing records as it wrote them lists one written
	// late above records of the backfill, where it was taken for news. (Only with Start From: a start's own floor may
	// be a stamp in the bank's future, and records written after it would be lost.)
	if (state.backfill === true && createdMs < state.originMs) return true;
	let record: IDataObject | undefined = slot.record;
	if (record !== undefined && looksUp(run, stream, slot)) {
		// The outcome is known; the event carries the Transfer status record, as the bank's webhook does. An outcome
		// whose event is not selected costs no request: the record is only remembered (a reversal of it is still
		// found in the failed-transfers list).
		const answer = await statusOf(run, stream, reference);
		if (answer === NO_REQUEST_LEFT) return false;
		record = answer?.record;
	}
	const concluded = record === undefined ? false : await conclude(run, stream, state, reference, record, createdMs);
	if (concluded === NO_REQUEST_LEFT) return false;
	if (!concluded) state.pending.set(reference, firstSeen(createdMs, run.nowMs, POLL_LIMITS.recheckDelaysMs));
	noteClock(run, state, createdMs);
	return true;
}

/** `slot` with the status the failed transfers' list showed later in this poll (failedThisPoll), if it did. */
const asOfThisPoll = (run: EmitRun, slot: Slot): Slot =>
	slot.record !== undefined && run.failedThisPoll.has(slot.reference as string) ? { ...slot, record: { ...slot.record, status: 'failed' } } : slot;

/**
 * Whether handing a listed record on reads its status first: a transfer listed with an outcome whose event is
 * selected, through the API client (the event carries the Transfer status record, as the bank's webhook does).
 */
function looksUp(run: EmitRun, stream: Stream, slot: Slot): boolean {
	const listed = outcomeOf(slot.record?.status);
	const kind = listed === 'pending' ? undefined : eventKindOf(stream.name, listed);
	return kind !== undefined && run.settings.events.includes(kind) && stream.name === 'transfers' && run.variant === 'api';
}

/** Requests handing a listed record on may take (core/types.ts, costOf): its status look-up; on the dashboard, one. */
export const listedCost = (run: EmitRun, stream: Stream) => (slot: Slot): number => (run.variant === 'web' || looksUp(run, stream, asOfThisPoll(run, slot)) ? 1 : 0);

/**
 * A page of the list shows a record the trigger watches as pending with a final status: it is checked at the
 * next chance rather than after its growing wait.
 */
export function noticeFinal(state: StreamState, slots: Slot[], nowMs: number): void {
	for (const slot of slots) {
		const watched = slot.reference === undefined ? undefined : state.pending.get(slot.reference);
		if (watched !== undefined && outcomeOf(slot.record?.status) !== 'pending' && watched.nextCheckMs > nowMs && watched.firstSeenMs !== nowMs) {
			state.pending.set(slot.reference as string, { ...watched, nextCheckMs: nowMs });
		}
	}
}

/** Status checks of the records still pending that are due, at most `max`. */
export async function recheckPending(run: EmitRun, stream: Stream, state: StreamState, max: number): Promise<void> {
	for (const reference of dueReferences(state.pending, run.nowMs, Math.min(POLL_LIMITS.recheckPerPoll, max))) {
		const watched = state.pending.get(reference);
		// Seen pending by this very poll: its status was just read.
		if (watched === undefined || watched.firstSeenMs === run.nowMs) continue;
		const answer = await statusOf(run, stream, reference);
		if (answer === NO_REQUEST_LEFT) return;
		const concluded = answer?.record === undefined ? false : await conclude(run, stream, state, reference, answer.record, watched.createdMs);
		if (concluded === NO_REQUEST_LEFT) return;
		if (!concluded) state.pending.set(reference, reschedule(watched, run.nowMs, POLL_LIMITS.recheckDelaysMs));
	}
}

/**
 * A transfer the failed-transfers list shows that this trigger has not reported failed. The contract's "failed"
 * includes "a debit reversed": a transfer the transfers stream handled as successful (it is remembered, or older
 * than what the stream remembers) and created since the trigger started is a reversal, emitted as Transfer Failed
 * once. One the transfers stream has not reached yet is a new failure, which that stream emits: noted for this
 * poll (failedThisPoll), as a page of that stream read earlier in it may still list the transfer successful.
 */
export async function handleFailure(run: EmitRun, stream: Stream, transfers: StreamState, slot: Slot): Promise<boolean> {
	const reference = slot.reference as string;
	const createdMs = slot.createdMs as number;
	if (createdMs < transfers.originMs || transfers.failed.has(reference) || transfers.pending.has(reference)) return true;
	const floorMs = historyFloor(transfers);
	const handled = transfers.memory.seen.has(reference) || (floorMs !== null && createdMs < floorMs);
	if (!handled) {
		run.failedThisPoll.add(reference);
		return true;
	}
	let record: IDataObject | undefined = slot.record;
	if (run.variant === 'api') {
		const answer = await statusOf(run, stream, reference);
		record = answer === NO_REQUEST_LEFT ? undefined : answer?.record;
	}
	// Its status could not be read (or this poll has no request left for it: a check for records written late may
	// take its last to find the reversal): watched as pending, so a later check reports it. A reversal is not
	// ordered against other events, so nothing waits for it.
	if (record === undefined) transfers.pending.set(reference, firstSeen(createdMs, run.nowMs, POLL_LIMITS.recheckDelaysMs));
	else if (outcomeOf(record.status) === 'failed') return (await conclude(run, stream, transfers, reference, record, createdMs)) !== NO_REQUEST_LEFT;
	return true;
}

/** The words that mark warnAboutPendingAtStart's 'later' warning (the tests find it by them). */
export const PENDING_AT_START_UNREAD = 'more transfers were pending at its start than one poll could read';
/** Words every warnAboutPendingAtStart warning holds (the fuzz summary counts the histories warned by them). */
export const PENDING_AT_START = 'pending at its start';

/**
 * Why transfers pending at the trigger's start may never be watched: more than its first poll could read ('later':
 * the rest are read at the next polls, pendingScan.ts), read over several pages ('pages': one that
 * turned final between two reads, before its own page, was not seen; one moved up onto a page read already is found
 * at the next poll if still pending), or more than POLL_LIMITS.maxPending
 * ('tooMany': the older are never read). The list does not say when a status changed, so a transfer that turns
 * final before the trigger reads it is not told from history.
 */
export type PendingAtStartRisk = 'later' | 'pages' | 'tooMany';

/** Says once, when the start stands, that outcomes of transfers pending then may not be emitted: what to check, and any remedy. */
export function warnAboutPendingAtStart(run: { context: BankContext; settings: PollSettings }, servedAPage: number, why: PendingAtStartRisk): void {
	const served = `the bank served ${servedAPage} a page`;
	const rest = {
		later: `${PENDING_AT_START_UNREAD} (${served}; Requests per Poll is ${run.settings.requestBudget}). The rest are read at the next polls; the outcome of one that turns successful or failed before then is not emitted. `,
		pages: `the transfers ${PENDING_AT_START} took more than one page to read (${served}); the outcome of one that turned successful or failed before the trigger read it (transfers turning final above it move it onto a page read already, and the next poll reads those again) is not emitted. `,
		tooMany: `more than ${POLL_LIMITS.maxPending} transfers were ${PENDING_AT_START}: the newest ${POLL_LIMITS.maxPending} are watched, and the outcomes of the older ones are not emitted. `,
	}[why];
	run.context.logger.warn(
		`${who(run.context)}: ${rest}Check the transfers pending when the trigger started with Transfer → Get Status${why === 'later' ? ', and raise Requests per Poll so that a start reads them all in one poll' : ''}.`,
	);
}

/** Keeps at most maxPending records pending (the newest first seen), warning about each given up. */
export function warnAbout(run: EmitRun, dropped: string[]): void {
	for (const reference of dropped) {
		run.context.logger.warn(
			`${who(run.context)} stopped watching ${reference}: more than ${POLL_LIMITS.maxPending} records are pending. Check its outcome with Transfer → Get Status.`,
		);
	}
}

export { firstSeen };
