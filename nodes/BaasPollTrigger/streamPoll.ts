/**
 * One stream's part of a scheduled poll: re-check what is pending, look for reversed transfers, then deliver the
 * records after the place, oldest first, within the request budget. The state is changed in place and is
 * consistent after every request, so a poll that runs out of budget or meets a refusal keeps what it handled.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { ApiVariant } from '../Baas/transport/routes';
import type { EventKind } from '../BaasTrigger/options';
import { asNodeError } from '../Baas/transport/outcome';
import type { Budget } from './budget';
import { endsThePoll } from './budget';
import { markHandled, placeOf } from './cursor';
import type { Stream } from './events';
import { eventKindOf, outcomeOf } from './events';
import type { ListOptions, Listed, Position } from './listing';
import { readPage, sinceFilter, topOf } from './listing';
import { dueReferences, firstSeen, reschedule } from './pending';
import type { PollSettings } from './settings';
import { POLL_LIMITS } from './settings';
import { inWebhookShape } from './shape';
import type { StreamState, WalkPage } from './state';
import type { StatusAnswer } from './status';
import { currentStatus } from './status';

export interface Emitted {
	kind: EventKind;
	record: IDataObject;
	createdMs: number;
}

export interface PollRun {
	context: IPollFunctions;
	settings: PollSettings;
	variant: ApiVariant;
	nowMs: number;
	emit: (event: Emitted) => void;
	/** Set once any request of the poll succeeded: from then on a failure ends the poll keeping its progress. */
	progressed: boolean;
	/** Records stamped further ahead of n8n's clock than the overlap, and the furthest ahead (ms). */
	ahead: { count: number; mostMs: number };
	/** Records that arrived stamped before the previous poll by more than the overlap. */
	behind: { count: number; mostMs: number };
}

const who = (run: PollRun) => `BaaS (Polling) Trigger "${run.context.getNode().name}"`;

/** The status of one record, or undefined when it could not be read (it stays pending, with a warning). */
async function statusOf(run: PollRun, stream: Stream, reference: string, budget: Budget): Promise<StatusAnswer | undefined> {
	budget.take();
	try {
		const answer = await currentStatus(run.context, stream, reference, run.variant);
		run.progressed = true;
		return answer;
	} catch (error) {
		if (endsThePoll(error)) throw asNodeError(run.context.getNode(), error);
		run.context.logger.warn(
			`${who(run)} could not read the status of ${reference} (${(error as Error).message}); it stays pending and is checked again at a later poll`,
		);
		return undefined;
	}
}

/** Emits a final record (in the webhook's shape) and forgets it as pending; false while it is still pending. */
async function conclude(run: PollRun, stream: Stream, state: StreamState, reference: string, record: IDataObject, createdMs: number, budget: Budget): Promise<boolean> {
	const outcome = outcomeOf(record.status);
	if (outcome === 'pending') return false;
	const kind = eventKindOf(stream.name, outcome);
	if (kind !== undefined && run.settings.events.includes(kind)) {
		const shaped = await inWebhookShape(run.context, run.variant, stream, record, budget, run.nowMs);
		run.emit({ kind, record: shaped, createdMs });
	}
	if (kind === 'TRANSFER_FAILED') state.failed.set(reference, createdMs);
	state.pending.delete(reference);
	return true;
}

function noteClock(run: PollRun, state: StreamState, entry: Listed): void {
	const aheadMs = entry.createdMs - run.nowMs;
	if (aheadMs > POLL_LIMITS.overlapMs) {
		run.ahead.count++;
		run.ahead.mostMs = Math.max(run.ahead.mostMs, aheadMs);
	}
	if (state.lastPollMs !== undefined) {
		const behindMs = state.lastPollMs - entry.createdMs;
		if (behindMs > POLL_LIMITS.overlapMs) {
			run.behind.count++;
			run.behind.mostMs = Math.max(run.behind.mostMs, behindMs);
		}
	}
}

/** A record after the place, read from the list: emitted when final, else watched as pending. */
async function handle(run: PollRun, stream: Stream, state: StreamState, entry: Listed, budget: Budget): Promise<void> {
	let record: IDataObject | undefined = entry.record;
	if (outcomeOf(record.status) !== 'pending' && stream.name === 'transfers' && run.variant === 'api') {
		// The outcome is known; the event carries the Transfer status record, as the bank's webhook does.
		record = (await statusOf(run, stream, entry.reference, budget))?.record;
	}
	if (record === undefined || !(await conclude(run, stream, state, entry.reference, record, entry.createdMs, budget))) {
		state.pending.set(entry.reference, firstSeen(entry.createdMs, run.nowMs, POLL_LIMITS.recheckDelaysMs));
	}
	noteClock(run, state, entry);
	markHandled(state.cursor, entry);
}

async function recheckPending(run: PollRun, stream: Stream, state: StreamState, budget: Budget): Promise<void> {
	// Leave the list (and the reversal check) at least one request each.
	const reserve = stream.name === 'transfers' ? 2 : 1;
	for (const reference of dueReferences(state.pending, run.nowMs, Math.min(POLL_LIMITS.recheckPerPoll, budget.left - reserve))) {
		const watched = state.pending.get(reference);
		if (watched === undefined) continue;
		const answer = await statusOf(run, stream, reference, budget);
		const concluded = answer?.record !== undefined && (await conclude(run, stream, state, reference, answer.record, watched.createdMs, budget));
		if (!concluded) state.pending.set(reference, reschedule(watched, run.nowMs, POLL_LIMITS.recheckDelaysMs));
		// Handled: the list read that follows must not take it for new (one watched since activation is not in
		// `seen` yet). Only `seen`, not the newest instant: the place must not jump over records not yet read.
		else state.cursor.seen.set(reference, watched.createdMs);
	}
}

/**
 * Transfers reported successful and later reversed: the contract's "failed" includes "a debit reversed", and
 * the list then shows the transfer's own record as failed, at its original created_at (behind the place). One
 * request per poll reads the newest failed transfers of the look-back; each one the trigger handled without
 * reporting it failed is emitted as Transfer Failed, once.
 */
async function reportReversals(run: PollRun, stream: Stream, state: StreamState, budget: Budget): Promise<void> {
	const since = run.nowMs - POLL_LIMITS.lookBackMs;
	for (const [reference, createdMs] of state.failed) if (createdMs < since) state.failed.delete(reference);
	if (stream.name !== 'transfers' || !run.settings.events.includes('TRANSFER_FAILED')) return;
	budget.take();
	const page = await readPage(run.context, stream, topOf(POLL_LIMITS.pageSize), {
		variant: run.variant,
		accountNumber: run.settings.accountNumber,
		pageSize: POLL_LIMITS.pageSize,
		filters: { status: 'failed', ...sinceFilter(since) },
	});
	run.progressed = true;
	for (const entry of [...page.listed].reverse()) {
		const reversed =
			entry.createdMs >= Math.max(since, state.originMs) &&
			placeOf(state.cursor, entry) !== 'new' &&
			!state.pending.has(entry.reference) &&
			!state.failed.has(entry.reference);
		if (!reversed) continue;
		let record: IDataObject | undefined = entry.record;
		if (run.variant === 'api') record = (await statusOf(run, stream, entry.reference, budget))?.record;
		if (record !== undefined && outcomeOf(record.status) === 'failed') await conclude(run, stream, state, entry.reference, record, entry.createdMs, budget);
	}
}

const positionKey = (position: Position) => JSON.stringify(position);

const isCursor = (position: Position | undefined): position is Position =>
	typeof position?.cursor_created_at === 'string' && typeof position.cursor_id === 'string';

/**
 * The top page's position as a cursor just after its newest record: read again by a later poll, "page 1" would
 * be the newest records of that moment, and the page's own records, pushed down by new ones, would be skipped.
 */
function anchored(position: Position, listed: Listed[], size: number): Position {
	if (position.cursor_created_at !== undefined || listed.length === 0) return position;
	const newestMs = Math.max(...listed.map((entry) => entry.createdMs));
	return { cursor_created_at: new Date(newestMs + 1).toISOString(), limit: size };
}

/** The new records of one page, oldest first. */
async function handleNew(run: PollRun, stream: Stream, state: StreamState, listed: Listed[], budget: Budget): Promise<void> {
	for (const entry of [...listed].reverse()) {
		if (placeOf(state.cursor, entry) !== 'new' || state.pending.has(entry.reference)) continue;
		await handle(run, stream, state, entry, budget);
	}
}

const passesFloor = (listed: Listed[], floorMs: number | null) => floorMs !== null && listed.some((entry) => entry.createdMs < floorMs);

/**
 * A page found by an earlier poll, read again from where it starts down to where the next (older) page started,
 * or to the floor for the oldest: records the bank wrote late inside it push its last ones past the page's end,
 * and those must not fall between two pages.
 */
async function rereadPage(run: PollRun, stream: Stream, state: StreamState, page: WalkPage, options: ListOptions, budget: Budget): Promise<void> {
	const until = page.until;
	const reached = (listed: Listed[]) =>
		isCursor(until)
			? listed.some((entry) => entry.record.id === until.cursor_id || entry.createdMs < Date.parse(String(until.cursor_created_at)))
			: passesFloor(listed, state.cursor.floorMs);
	let position: Position | undefined = page.at;
	while (position !== undefined) {
		budget.take();
		const read = await readPage(run.context, stream, position, options);
		run.progressed = true;
		await handleNew(run, stream, state, read.listed, budget);
		position = reached(read.listed) ? undefined : read.next;
	}
}

/**
 * The records after the place, oldest first. The list is newest first, so the poll first finds the floor,
 * keeping the position of each page on the way (a backlog larger than the budget is searched over several
 * polls), then delivers the pages from the oldest, one page at a time, re-reading a page only when it was
 * read by an earlier poll. The floor stays where it is until the walk is done (see finish in poll.ts).
 */
async function deliverNew(run: PollRun, stream: Stream, state: StreamState, budget: Budget): Promise<void> {
	const options: ListOptions = {
		variant: run.variant,
		accountNumber: run.settings.accountNumber,
		pageSize: POLL_LIMITS.pageSize,
		filters: sinceFilter(state.cursor.floorMs),
	};
	const inHand = new Map<string, Listed[]>();
	const walk = (state.walk ??= { pages: [], resume: topOf(POLL_LIMITS.pageSize) });
	while (walk.resume !== undefined) {
		budget.take();
		const page = await readPage(run.context, stream, walk.resume, options);
		run.progressed = true;
		const at = anchored(walk.resume, page.listed, POLL_LIMITS.pageSize);
		walk.pages.push(isCursor(page.next) ? { at, until: page.next } : { at });
		inHand.set(positionKey(at), page.listed);
		walk.resume = passesFloor(page.listed, state.cursor.floorMs) ? undefined : page.next;
	}
	while (walk.pages.length > 0) {
		const page = walk.pages[walk.pages.length - 1];
		const listed = inHand.get(positionKey(page.at));
		if (listed !== undefined) await handleNew(run, stream, state, listed, budget);
		else await rereadPage(run, stream, state, page, options, budget);
		walk.pages.pop();
	}
	state.walk = undefined;
}

export async function pollStream(run: PollRun, stream: Stream, state: StreamState, budget: Budget): Promise<void> {
	await recheckPending(run, stream, state, budget);
	await reportReversals(run, stream, state, budget);
	await deliverNew(run, stream, state, budget);
}
