/**
 * One scheduled poll: per stream, re-check the records still pending, read the new ones back to the cursor,
 * and emit each event once. Nothing is written to static data until every request of the poll has succeeded,
 * so a failed poll (80, 429, no answer) emits nothing and the next poll starts from the same place.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError } from '../Baas/transport/outcome';
import { variantOf } from '../Baas/transport/request';
import type { ApiVariant } from '../Baas/transport/routes';
import type { EventKind } from '../BaasTrigger/options';
import type { StreamCursor } from './cursor';
import { advance, emptyCursor, parseCursor, placeOf } from './cursor';
import type { Stream } from './events';
import { eventKindOf, outcomeOf, streamsFor, toItem } from './events';
import { readBackToFloor } from './listing';
import type { PendingSet } from './pending';
import { boundPending, dueReferences, firstSeen, parsePending, reschedule } from './pending';
import type { PollSettings } from './settings';
import { POLL_LIMITS } from './settings';
import { assertNotPaused, clearPause, isSignInRefusal, pauseAfterRefusal } from './signInPause';
import { currentStatus } from './status';

interface StreamState {
	/** The settings the cursor belongs to; a change of account, Start From or authentication starts over. */
	scope: string;
	cursor: StreamCursor;
	pending: PendingSet;
}

interface Emitted {
	kind: EventKind;
	record: IDataObject;
	createdMs: number;
}

function scopeOf(settings: PollSettings, variant: ApiVariant): string {
	return `${variant}|${settings.accountNumber ?? ''}|${settings.startFrom}`;
}

function savedState(value: unknown, scope: string): StreamState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as IDataObject;
	const cursor = parseCursor(v.cursor);
	if (v.scope !== scope || cursor === undefined) return undefined;
	return { scope, cursor, pending: parsePending(v.pending) };
}

/**
 * Where a new stream starts. With Start From, at that moment (a backfill). Otherwise at the newest record the
 * bank lists now, by the bank's own clock, so clock skew with n8n can neither skip nor replay anything.
 */
async function startingState(context: IPollFunctions, stream: Stream, settings: PollSettings, variant: ApiVariant, scope: string): Promise<{ state: StreamState; fresh: boolean }> {
	if (settings.startFromMs !== undefined) {
		return { state: { scope, cursor: emptyCursor(settings.startFromMs), pending: {} }, fresh: false };
	}
	const { listed } = await readBackToFloor(context, stream, emptyCursor(null), {
		variant,
		accountNumber: settings.accountNumber,
		pageSize: POLL_LIMITS.pageSize,
		maxRecords: 1,
	});
	const newest = listed[listed.length - 1];
	const cursor: StreamCursor =
		newest === undefined
			? emptyCursor(null)
			: {
					floorMs: newest.createdMs,
					newestMs: newest.createdMs,
					seen: Object.fromEntries(listed.filter((l) => l.createdMs === newest.createdMs).map((l) => [l.reference, l.createdMs])),
				};
	return { state: { scope, cursor, pending: {} }, fresh: true };
}

async function pollStream(
	context: IPollFunctions,
	stream: Stream,
	saved: StreamState | undefined,
	settings: PollSettings,
	variant: ApiVariant,
	nowMs: number,
	emit: (event: Emitted) => void,
): Promise<StreamState> {
	const scope = scopeOf(settings, variant);
	let state = saved;
	if (state === undefined) {
		const start = await startingState(context, stream, settings, variant, scope);
		if (start.fresh) return start.state;
		state = start.state;
	}
	const pending: PendingSet = { ...state.pending };
	const conclude = (reference: string, record: IDataObject, createdMs: number) => {
		const outcome = outcomeOf(record.status);
		if (outcome === 'pending') return false;
		const kind = eventKindOf(stream.name, outcome);
		if (kind !== undefined && settings.events.includes(kind)) emit({ kind, record, createdMs });
		delete pending[reference];
		return true;
	};

	for (const reference of dueReferences(pending, nowMs, POLL_LIMITS.recheckPerPoll)) {
		const answer = await currentStatus(context, stream, reference, variant);
		if (answer.record === undefined || !conclude(reference, answer.record, pending[reference].createdMs)) {
			pending[reference] = reschedule(pending[reference], nowMs, POLL_LIMITS.recheckDelaysMs);
		}
	}

	const { listed } = await readBackToFloor(context, stream, state.cursor, {
		variant,
		accountNumber: settings.accountNumber,
		pageSize: POLL_LIMITS.pageSize,
	});
	for (const entry of listed) {
		if (placeOf(state.cursor, entry) !== 'new' || pending[entry.reference] !== undefined) continue;
		let record: IDataObject | undefined = entry.record;
		if (outcomeOf(record.status) !== 'pending' && stream.name === 'transfers' && variant === 'api') {
			// The outcome is known; the event carries the Transfer status record, as the bank's webhook does.
			record = (await currentStatus(context, stream, entry.reference, variant)).record;
		}
		if (record === undefined || !conclude(entry.reference, record, entry.createdMs)) {
			pending[entry.reference] = firstSeen(entry.createdMs, nowMs, POLL_LIMITS.recheckDelaysMs);
		}
	}

	const { kept, dropped } = boundPending(pending, POLL_LIMITS.maxPending);
	for (const reference of dropped) {
		context.logger.warn(
			`BaaS Poll Trigger "${context.getNode().name}" stopped watching ${reference}: more than ${POLL_LIMITS.maxPending} records are pending. Check its outcome with Transfer → Get Status.`,
		);
	}
	return { scope, cursor: advance(state.cursor, listed, POLL_LIMITS), pending: kept };
}

/** The scheduled poll. Returns the new events (oldest first) or null when there are none. */
export async function pollForEvents(context: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][] | null> {
	const nowMs = Date.now();
	assertNotPaused(context, nowMs);
	const variant = variantOf(context);
	const staticData = context.getWorkflowStaticData('node');
	const savedStreams = (typeof staticData.streams === 'object' && staticData.streams !== null ? staticData.streams : {}) as IDataObject;
	const next: Record<string, StreamState> = {};
	const emitted: Emitted[] = [];
	try {
		for (const stream of streamsFor(settings)) {
			const saved = savedState(savedStreams[stream.name], scopeOf(settings, variant));
			next[stream.name] = await pollStream(context, stream, saved, settings, variant, nowMs, (event) => emitted.push(event));
		}
	} catch (error) {
		if (isSignInRefusal(error)) pauseAfterRefusal(context, error as NodeApiError, nowMs, POLL_LIMITS.signInPauseMs);
		throw asNodeError(context.getNode(), error);
	}
	clearPause(context);
	// Assigned as a whole: n8n notices changes to static data through its top-level properties.
	staticData.streams = next as unknown as IDataObject;
	if (emitted.length === 0) return null;
	const nowIso = new Date(nowMs).toISOString();
	emitted.sort((a, b) => a.createdMs - b.createdMs);
	return [emitted.map((event) => toItem(event.kind, event.record, settings.output, nowIso))];
}
