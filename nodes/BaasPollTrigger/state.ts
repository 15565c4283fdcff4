/** What the Poll Trigger keeps per stream in the node's static data, and how it is read back. Pure. */
import type { IDataObject } from 'n8n-workflow';

import type { ApiVariant } from '../Baas/transport/routes';
import type { StreamCursor } from './cursor';
import { cursorToJson, parseCursor } from './cursor';
import type { Position } from './listing';
import type { PendingSet } from './pending';
import { parsePending, pendingToJson } from './pending';

/**
 * A backlog being read across polls: the pages found between the newest record and the floor (newest page
 * first) that are not yet delivered, and where the search for the floor goes on (undefined once the floor was
 * reached). Pages are delivered from the oldest, so events arrive oldest first. Each page keeps where it starts
 * and where the next (older) page started, so a page read again is read down to there even when records the
 * bank wrote late inside it pushed its last ones out of it.
 */
export interface WalkPage {
	at: Position;
	until?: Position;
}

export interface Walk {
	pages: WalkPage[];
	resume?: Position;
}

export interface StreamState {
	/** The settings the place belongs to: a change of account or authentication starts over (Start From does not). */
	scope: string;
	cursor: StreamCursor;
	pending: PendingSet;
	walk?: Walk;
	/** When the trigger started on this stream (bank clock): reversals of older transfers are not its events. */
	originMs: number;
	/** Transfers emitted as failed, by reference → created_at, kept for the look-back (a reversal is reported once). */
	failed: Map<string, number>;
	/** n8n's clock at the end of the last poll, to notice a bank clock running behind. */
	lastPollMs?: number;
}

export function scopeOf(variant: ApiVariant, accountNumber: string | undefined): string {
	return `${variant}|${accountNumber ?? ''}`;
}

/** The scope of a state saved by an earlier version (variant|account|startFrom), read as this version's. */
function scopeOfSaved(scope: unknown): string | undefined {
	if (typeof scope !== 'string') return undefined;
	const [variant, account] = scope.split('|');
	return `${variant}|${account ?? ''}`;
}

function pairsToMap(value: unknown): Map<string, number> {
	const out = new Map<string, number>();
	if (!Array.isArray(value)) return out;
	for (const pair of value) if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number') out.set(pair[0], pair[1]);
	return out;
}

function parseWalk(value: unknown): Walk | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as IDataObject;
	if (!Array.isArray(v.pages)) return undefined;
	const isPosition = (p: unknown): p is Position => typeof p === 'object' && p !== null && !Array.isArray(p);
	// Saved by an earlier version as bare positions.
	const pages = v.pages.filter(isPosition).map((page): WalkPage => {
		if (!isPosition(page.at)) return { at: page };
		return isPosition(page.until) ? { at: page.at, until: page.until } : { at: page.at };
	});
	return { pages, resume: isPosition(v.resume) ? v.resume : undefined };
}

/** The saved state of a stream, if it belongs to `scope`; `nowMs` starts the reversal watch of a state saved before it existed. */
export function parseState(value: unknown, scope: string, nowMs: number): StreamState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as IDataObject;
	const cursor = parseCursor(v.cursor);
	if (scopeOfSaved(v.scope) !== scope || cursor === undefined) return undefined;
	return {
		scope,
		cursor,
		pending: parsePending(v.pending),
		walk: parseWalk(v.walk),
		originMs: typeof v.originMs === 'number' ? v.originMs : nowMs,
		failed: pairsToMap(v.failed),
		lastPollMs: typeof v.lastPollMs === 'number' ? v.lastPollMs : undefined,
	};
}

export function stateToJson(state: StreamState): IDataObject {
	return {
		scope: state.scope,
		cursor: cursorToJson(state.cursor) as unknown as IDataObject,
		pending: pendingToJson(state.pending) as unknown as IDataObject[],
		...(state.walk ? { walk: state.walk as unknown as IDataObject } : {}),
		originMs: state.originMs,
		failed: [...state.failed] as unknown as IDataObject[],
		...(state.lastPollMs !== undefined ? { lastPollMs: state.lastPollMs } : {}),
	};
}
