/** What the Poll Trigger keeps in the node's static data, per list, and how it is read back. Pure. */
import type { IDataObject } from 'n8n-workflow';

import type { ApiVariant } from '../common/transport/routes';
import type { Memory } from './core/memory';
import { MALFORMED } from './core/memory';
import type { CheckProgress, ListState, Paging, Seen } from './core/types';
import type { PendingSet } from './pending';
import { parsePending, pendingToJson } from './pending';

/** A stream of events (collections, transfers): its list, and what it watches. */
export interface StreamState extends ListState {
	/** The settings the place belongs to: a change of account or authentication starts over (Start From does not). */
	scope: string;
	pending: PendingSet;
	/**
	 * Where the trigger started on this stream (bank clock, its floor then, fixed): reversals of older transfers are
	 * not its events, and the transfers pending at the start that are older are watched, the newer the list's.
	 */
	originMs: number;
	/**
	 * The trigger started on this stream with Start From (originMs is it): it emits the events since then, so a record
	 * stamped before it is not one, wherever the bank lists it.
	 */
	backfill?: true;
	/**
	 * Transfers whose failure is not news, by reference → created_at, kept for the look-back: those emitted as failed
	 * (a reversal is reported once) and those the start read above its floor (history).
	 */
	failed: Map<string, number>;
	/**
	 * Where the scan of the transfers pending at the start goes on (pendingScan.ts): the last page read (read again
	 * first, with the pages above it until one shows a transfer it watched), at the size the bank served, and `ending`
	 * once a page after it was seen short: the next poll reads both again before the scan ends.
	 */
	pendingScan?: { page: number; size: number; ending?: true };
	/** The newest record this poll handed on (bank clock), to warn of a bank clock behind n8n's; not saved. */
	newestNewMs?: number;
}

/** The saved format: version 2 (a mirror of the list); version 1 (a cursor and a walk of pages) is read once. */
const VERSION = 2;

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
	const pairs = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.entries(value) : [];
	for (const pair of pairs) if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number') out.set(pair[0], pair[1]);
	return out;
}

const isMs = (x: unknown): x is number | null => x === null || (typeof x === 'number' && Number.isFinite(x));

export function defaultPaging(pageSize: number): Paging {
	return { cap: pageSize, served: 0 };
}

function parsePaging(value: unknown, pageSize: number, nowMs: number): Paging {
	const v = (typeof value === 'object' && value !== null ? value : {}) as IDataObject;
	const served = typeof v.served === 'number' ? v.served : 0;
	const until = typeof v.capUntilMs === 'number' ? v.capUntilMs : undefined;
	const asWritten = v.asWritten === true ? { asWritten: true as const } : {};
	// A cap the bank showed is kept for a while, then full pages are asked for again.
	if (typeof v.cap !== 'number' || v.cap < 1 || v.cap >= pageSize || until === undefined || until <= nowMs) return { cap: pageSize, served, ...asWritten };
	return { cap: v.cap, served, capUntilMs: until, ...asWritten };
}

/**
 * A check for records written late left unfinished, if the records it names are still mirrored (a bound that does not
 * parse is dropped: the check measures it again).
 */
function parseCheck(value: unknown, mirror: string[]): CheckProgress | undefined {
	const v = (typeof value === 'object' && value !== null ? value : {}) as IDataObject;
	const mirrored = (reference: unknown) => (typeof reference === 'string' && reference !== MALFORMED && mirror.includes(reference) ? reference : undefined);
	const seen = (fact: unknown): Seen | undefined => {
		const f = (typeof fact === 'object' && fact !== null ? fact : {}) as IDataObject;
		const [reference, anchor] = [mirrored(f.reference), mirrored(f.anchor)];
		return reference === undefined || anchor === undefined || typeof f.span !== 'number' || !Number.isInteger(f.span) ? undefined : { reference, anchor, span: f.span };
	};
	const good = mirrored(v.good);
	const bad = seen(v.bad);
	const shallow = bad === undefined ? undefined : seen(v.shallow);
	if (good === undefined && bad === undefined) return undefined;
	return { ...(good !== undefined ? { good } : {}), ...(bad !== undefined ? { bad } : {}), ...(shallow !== undefined ? { shallow } : {}) };
}

/** What lay right below the mirror's deepest record, while that record is still mirrored. */
function belowDeepestOf(value: unknown, mirror: string[]): Pick<ListState, 'belowDeepest'> {
	const v = (typeof value === 'object' && value !== null ? value : {}) as IDataObject;
	if (typeof v.deepest !== 'string' || v.deepest === MALFORMED || !mirror.includes(v.deepest)) return {};
	if (v.reference === undefined) return { belowDeepest: { deepest: v.deepest } };
	if (typeof v.reference !== 'string' || v.reference === MALFORMED) return {};
	return { belowDeepest: { deepest: v.deepest, reference: v.reference } };
}

/** A list's place and memory as saved (version 2), or from a version 1 cursor (its references, newest first). */
function parseList(v: IDataObject, pageSize: number, nowMs: number): ListState | undefined {
	if (v.v === VERSION) {
		if (!isMs(v.floorMs) || !(v.lag === null || typeof v.lag === 'number')) return undefined;
		const seen = pairsToMap(v.seen);
		const mirror = Array.isArray(v.mirror) ? v.mirror.filter((r): r is string => typeof r === 'string' && (r === MALFORMED || seen.has(r))) : [];
		return {
			memory: { seen, mirror },
			lag: v.lag as number | null,
			searchFrom: typeof v.searchFrom === 'number' ? v.searchFrom : undefined,
			searchTo: typeof v.searchTo === 'number' ? v.searchTo : undefined,
			searchMet: v.searchMet === true ? true : undefined,
			searchBase: typeof v.searchBase === 'number' && v.searchBase >= 0 ? v.searchBase : undefined,
			...(v.unseenIsNew === true ? { unseenIsNew: true as const } : {}),
			searchAbove: typeof v.searchAbove === 'number' && v.searchAbove >= 0 ? v.searchAbove : undefined,
			floorMs: v.floorMs,
			paging: parsePaging(v.paging, pageSize, nowMs),
			grewBy: typeof v.grewBy === 'number' && v.grewBy >= 0 ? v.grewBy : undefined,
			heldPolls: typeof v.heldPolls === 'number' && Number.isInteger(v.heldPolls) && v.heldPolls > 0 ? v.heldPolls : undefined,
			checkStarved: v.checkStarved === true ? true : undefined,
			check: parseCheck(v.check, mirror),
			...belowDeepestOf(v.belowDeepest, mirror),
		};
	}
	const cursor = v.cursor as IDataObject | undefined;
	if (typeof cursor !== 'object' || cursor === null || !isMs(cursor.floorMs)) return undefined;
	const seen = pairsToMap(cursor.seen);
	// Version 1 read the list down to its floor at every poll; the references it saw, newest first, are where it
	// stood (a page of the list shows the order of those sharing an instant).
	const mirror = [...seen].sort((a, b) => b[1] - a[1]).map(([reference]) => reference);
	return { memory: { seen, mirror }, lag: 0, floorMs: cursor.floorMs, paging: defaultPaging(pageSize) };
}

/** The saved state of a stream, if it belongs to `scope`; `nowMs` starts the reversal watch of a state saved before it existed. */
export function parseState(value: unknown, scope: string, nowMs: number, pageSize: number): StreamState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as IDataObject;
	if (scopeOfSaved(v.scope) !== scope) return undefined;
	const list = parseList(v, pageSize, nowMs);
	if (list === undefined) return undefined;
	return {
		...list,
		scope,
		pending: parsePending(v.pending),
		originMs: typeof v.originMs === 'number' ? v.originMs : nowMs,
		...(v.backfill === true ? { backfill: true as const } : {}),
		failed: pairsToMap(v.failed),
		...scanOf(v.pendingScan),
	};
}

function scanOf(value: unknown): Pick<StreamState, 'pendingScan'> {
	const scan = value as { page?: unknown; size?: unknown; ending?: unknown } | null | undefined;
	const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;
	if (typeof scan !== 'object' || scan === null || !whole(scan.page) || !whole(scan.size)) return {};
	return { pendingScan: { page: scan.page, size: scan.size, ...(scan.ending === true ? { ending: true as const } : {}) } };
}

/** The failed-transfers list (reversals), if saved for `scope`. */
export function parseListState(value: unknown, scope: string, nowMs: number, pageSize: number): ListState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as IDataObject;
	if (v.scope !== scope || v.v !== VERSION) return undefined;
	return parseList(v, pageSize, nowMs);
}

function memoryToJson(memory: Memory): IDataObject {
	return { seen: [...memory.seen] as unknown as IDataObject[], mirror: memory.mirror };
}

export function listToJson(scope: string, list: ListState): IDataObject {
	return {
		v: VERSION,
		scope,
		...memoryToJson(list.memory),
		lag: list.lag,
		...(list.searchFrom !== undefined ? { searchFrom: list.searchFrom } : {}),
		...(list.searchTo !== undefined ? { searchTo: list.searchTo } : {}),
		...(list.searchMet === true ? { searchMet: true } : {}),
		...(list.searchBase !== undefined ? { searchBase: list.searchBase } : {}),
		...(list.unseenIsNew === true ? { unseenIsNew: true } : {}),
		...(list.searchAbove !== undefined ? { searchAbove: list.searchAbove } : {}),
		floorMs: list.floorMs,
		paging: list.paging as unknown as IDataObject,
		...(list.grewBy !== undefined ? { grewBy: list.grewBy } : {}),
		...(list.heldPolls !== undefined ? { heldPolls: list.heldPolls } : {}),
		...(list.checkStarved === true ? { checkStarved: true } : {}),
		...(list.belowDeepest !== undefined ? { belowDeepest: list.belowDeepest as unknown as IDataObject } : {}),
		...(list.check !== undefined ? { check: Object.fromEntries(Object.entries(list.check).filter(([, value]) => value !== undefined)) as IDataObject } : {}),
	};
}

export function stateToJson(state: StreamState): IDataObject {
	return {
		...listToJson(state.scope, state),
		pending: pendingToJson(state.pending) as unknown as IDataObject[],
		originMs: state.originMs,
		...(state.backfill === true ? { backfill: true } : {}),
		failed: [...state.failed] as unknown as IDataObject[],
		...(state.pendingScan !== undefined ? { pendingScan: state.pendingScan as unknown as IDataObject } : {}),
	};
}
