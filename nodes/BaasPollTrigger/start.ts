/**
 * The lists a poll reads and where a trigger starts in them. Without Start From, what the bank lists at the first
 * poll is history: the trigger starts above its newest record and emits nothing of it. Every time here is the
 * bank's (its records' created_at): n8n's clock may be far from it and is never used to tell history from news.
 */
import type { IDataObject } from 'n8n-workflow';

import { emptyMemory, isValid } from './core/memory';
import type { Slot } from './core/memory';
import type { ListState } from './core/types';
import type { PendingAtStartRisk } from './emitter';
import { warnAboutPendingAtStart } from './emitter';
import type { Stream } from './events';
import type { StartRun } from './filters';
import { listFilters, pendingFilters } from './filters';
import { scanEnd, watchPending } from './pendingScan';
import { readListPage } from './reader';
import { POLL_LIMITS, requestsToStart, START_RECORDS } from './settings';
import type { StreamState } from './state';
import { defaultPaging, parseListState } from './state';

/**
 * How far back the failed transfers are read for reversals: the look-back behind the newest transfer the trigger
 * handled (bank clock), and never before the trigger started.
 */
export function failuresFloor(transfers: StreamState): number {
	let newest = transfers.originMs;
	for (const ms of transfers.memory.seen.values()) if (ms > newest) newest = ms;
	return Math.max(transfers.originMs, newest - POLL_LIMITS.lookBackMs);
}

/**
 * The top of a list at the trigger's start, read on past its first page until `enough` holds: a bank may serve
 * fewer records a page than asked (the contract names no maximum), so the first page alone can hide what the start
 * must see. Pages after a short first page are asked at the size it served (page p of size n holds ranks (p-1)·n …
 * p·n-1 whichever way the bank counts pages); reading stops at a page that is short or shows nothing new, at
 * POLL_LIMITS.maxPending records, or when only `keep(served)` requests are left for what comes next (`served`: the
 * records its first page held). Newest first, each reference once.
 */
async function topOfList(
	run: StartRun,
	filters: IDataObject,
	enough: (slots: Slot[]) => boolean,
	keep: (served: number) => number,
	toTheEnd = false,
): Promise<{ slots: Slot[]; ended: boolean; sawEnd: boolean; last: { page: number; size: number } } | undefined> {
	const spec = { filters, variant: run.variant };
	const first = await readListPage(run, spec, { page: 1, size: POLL_LIMITS.pageSize });
	if (first === undefined) return undefined;
	const slots = [...first.slots];
	const shown = new Set(slots.map((slot) => slot.reference));
	const size = first.slots.length;
	// The list's end shown (`sawEnd`): an empty list, or a page shorter than the first (a bank serves as many a page
	// as it did). A page showing nothing new ends the reading too, but not the list: records written above meanwhile
	// push the same records down.
	let sawEnd = first.slots.length === 0;
	let ended = sawEnd;
	let last = 1;
	for (let page = 2; !ended && !enough(slots) && slots.length < POLL_LIMITS.maxPending && run.budget.left > keep(size); page++) {
		const next = await readListPage(run, spec, { page, size });
		if (next === undefined) break;
		last = page;
		const fresh = next.slots.filter((slot) => slot.reference === undefined || !shown.has(slot.reference));
		for (const slot of fresh) shown.add(slot.reference);
		slots.push(...fresh);
		sawEnd = next.slots.length < size;
		// Not for a reading `toTheEnd` (the pending transfers): the records it has not read lie under the same ones.
		ended = sawEnd || (fresh.length === 0 && !toTheEnd);
	}
	return { slots, ended, sawEnd, last: { page: last, size } };
}

/** How many of a list's entries are records to stand on (a malformed entry has no reference or time). */
const recordsIn = (slots: Slot[]) => slots.filter(isValid).length;

/**
 * A stream the trigger has no place in yet. With Start From, it reads up from that moment (a backfill);
 * otherwise the records the bank lists now are history and the trigger starts above the newest of them.
 * Transfers still pending then are watched, so their outcome is emitted when final. Undefined when the poll ran
 * out of requests before the start could stand: it is made again at the next poll.
 */
export async function startStream(run: StartRun, stream: Stream, scope: string): Promise<{ state: StreamState; fresh: boolean } | undefined> {
	// The list's top settles for one record only when more requests would not show more: it had what a start needs
	// where no entry is malformed. With fewer (the lists started before it took them), it is made again.
	const settleForOne = run.budget.left >= requestsToStart(stream.name);
	const pending: StreamState['pending'] = new Map();
	let pendingScan: StreamState['pendingScan'];
	let unread: { size: number; why: PendingAtStartRisk } | undefined;
	if (stream.name === 'transfers') {
		// Every transfer pending then is watched: one the trigger never saw would have its outcome lost. Read before
		// the list's top, so that one written in between is the list's (on its top) and not also watched.
		const top = await topOfList(run, pendingFilters(run, stream), () => false, requestsForTop, true);
		if (top === undefined) return undefined;
		watchPending(run, pending, top.slots);
		// Not all read (the requests ran out): later polls read on, from the last page read (continuePendingScan).
		if (!top.ended && top.slots.length < POLL_LIMITS.maxPending) pendingScan = top.last;
		if (!top.ended) unread = { size: top.last.size, why: pendingScan !== undefined ? 'later' : 'tooMany' };
		// Read to a short page after a first one that held records: confirmed at the next poll (scanEnd).
		else if (top.sawEnd && top.last.page > 1) pendingScan = scanEnd(top.last.page - 1, top.last.size);
		// Read in one poll but over several pages: one that turned final before its page was read was not seen.
		if (unread === undefined && top.slots.length > top.last.size) unread = { size: top.last.size, why: 'pages' };
	}
	const startFromMs = run.settings.startFromMs;
	const place = startFromMs !== undefined ? backfillFrom(startFromMs) : await placeAtTop(run, stream, settleForOne);
	if (place === undefined) return undefined;
	// The list's top shows pending what was pending then: one the scan missed (moved up between its reads) is watched.
	const { pendingOnTop = [], ...placed } = place;
	watchPending(run, pending, pendingOnTop);
	// Said once the start stands (one made again at the next poll reads them again).
	if (unread !== undefined) warnAboutPendingAtStart(run, unread.size, unread.why);
	const base = { scope, pending, failed: new Map<string, number>(), paging: defaultPaging(POLL_LIMITS.pageSize), ...(pendingScan !== undefined ? { pendingScan } : {}) };
	return { state: { ...base, ...placed }, fresh: startFromMs === undefined };
}

/**
 * Requests the list's top needs after the pending transfers were read (`served`: how many records the bank served
 * on their first page): enough pages of that size for START_RECORDS. (A backfill reads one page of its list in the
 * same poll.)
 */
const requestsForTop = (served: number) => Math.ceil(START_RECORDS / Math.max(1, served));

type Place = Pick<StreamState, 'memory' | 'lag' | 'floorMs' | 'originMs' | 'unseenIsNew' | 'backfill'> & { failed?: Map<string, number>; pendingOnTop?: Slot[] };

const backfillFrom = (startFromMs: number): Place => ({ memory: emptyMemory(), lag: null, floorMs: startFromMs, originMs: startFromMs, backfill: true });

/** The created_at of the records among `slots`, newest listed first. */
const stampsOf = (slots: Slot[]) => slots.filter(isValid).map((slot) => slot.createdMs);

/**
 * Whether a record of `slots` is stamped after one listed above it. A list ordered by created_at never is; one
 * ordered as the bank recorded records is when one of the two is odd: written late with an old stamp (the upper),
 * or stamped in the bank's future (the lower). Two records cannot tell which: the start reads a third.
 */
const inverted = (slots: Slot[]) => stampsOf(slots).some((ms, i, stamps) => i > 0 && ms > stamps[i - 1]);

/**
 * The floor at the start: just above the deepest record read, or, where the records read are inverted, above the
 * middle stamp of the top three when that is lower. The odd one of three is the newest or the oldest stamp, never
 * the middle one, so the middle lies at or below what the bank writes after the start: the deepest alone, stamped
 * in the bank's future, had set the floor ahead of every record written after it. Never higher than the deepest:
 * above it, records the start read would lie under the floor only by time, and a list ordered as written shows such
 * a record again above remembered ones once it is forgotten (fuzz seed 93289 emitted it as news).
 */
export function startFloor(slots: Slot[]): number {
	const stamps = stampsOf(slots);
	const deepest = stamps[stamps.length - 1];
	if (stamps.length < 3 || !inverted(slots)) return deepest + 1;
	return Math.min(deepest, [...stamps.slice(0, 3)].sort((a, b) => a - b)[1]) + 1;
}

/** Where a trigger without Start From starts: above what the bank lists now. */
async function placeAtTop(run: StartRun, stream: Stream, settleForOne: boolean): Promise<Place | undefined> {
	// Read on until START_RECORDS records show (when the list holds them): a first page of malformed entries only
	// would make a list look empty, and its history new; and the floor is set by the deepest record read, never by
	// the top ones alone (stamped in the bank's future, on top of a list ordered by created_at, they would set the
	// floor ahead of every record written after them; in a list ordered as written, the deeper of two in order may be
	// one written late, whose old stamp would set the floor under history).
	const top = await topOfList(run, listFilters(run, stream, {}), (slots) => recordsIn(slots) >= START_RECORDS, () => 0);
	// Out of requests before they showed, the list's end not seen: the start is made again at the next poll (nothing
	// is saved), unless it settles for what it read (malformed entries among the top of a bank serving one a page,
	// with the requests a start needs).
	if (top === undefined || (!top.sawEnd && recordsIn(top.slots) < (settleForOne ? 1 : START_RECORDS))) return undefined;
	const { slots } = top;
	const memory = emptyMemory();
	const times = stampsOf(slots);
	for (const slot of slots) if (slot.reference !== undefined) memory.seen.set(slot.reference, slot.createdMs as number);
	memory.mirror = slots.map((slot) => slot.reference ?? '');
	// History: what is listed now, this top and everything below it. The floor is just above the deepest record read:
	// below it lies what was listed before it, stamped before it (in a list ordered by created_at that is the oldest
	// of the top; in one ordered as records were written, a record written late may top the list with an older
	// created_at than the records under it, which are history all the same). A record written later with an older
	// created_at than the floor lies below it too (a late one).
	const floorMs = times.length === 0 ? null : startFloor(slots);
	// A start that read to the list's end saw all of it: whatever the bank lists later that it did not see is news,
	// wherever it lands (the floor still tells the check where history lies). Not when an entry was malformed with no
	// reference: the bank may list that one well later, and it is history. One with a reference (only its created_at
	// wrong) is remembered by it (a lone record stamped in the bank's future over it had set the floor ahead of all).
	const sawAll = top.sawEnd && times.length > 0 && slots.every((slot) => isValid(slot) || slot.unstamped !== undefined);
	// Transfers listed at activation are history, and so are their reversals. The start is told by the floor, not
	// the newest record read (one stamped in the bank's future may top the list, with later transfers below it); the
	// records read above the floor are history too. An empty list, or one read to its end: every transfer listed later
	// that the start did not read is this trigger's, whatever its stamp (told by the floor, the reversal of an emitted
	// transfer stamped under a lone record stamped in the bank's future was taken for history's).
	const originMs = sawAll ? 0 : (floorMs ?? 0);
	const failed = new Map<string, number>();
	if (stream.name === 'transfers') {
		for (const slot of slots) {
			if (isValid(slot) && slot.createdMs >= originMs) failed.set(slot.reference, slot.createdMs);
			else if (sawAll && slot.unstamped !== undefined) failed.set(slot.unstamped, floorMs as number);
		}
	}
	if (sawAll) for (const slot of slots) if (slot.unstamped !== undefined) memory.seen.set(slot.unstamped, floorMs as number);
	const pendingOnTop = stream.name === 'transfers' ? slots.filter((slot) => isValid(slot) && String(slot.record?.status).toLowerCase() === 'pending') : [];
	return { memory, lag: 0, floorMs, originMs, failed, pendingOnTop, ...(sawAll ? { unseenIsNew: true as const } : {}) };
}

/** The failed-transfers list's saved state, or where a new one starts: from the trigger's start (or the look-back). */
export function failuresState(saved: unknown, scope: string, transfers: StreamState, nowMs: number): ListState {
	return (
		parseListState(saved, scope, nowMs, POLL_LIMITS.pageSize) ?? {
			memory: emptyMemory(),
			lag: null,
			floorMs: failuresFloor(transfers),
			paging: defaultPaging(POLL_LIMITS.pageSize),
		}
	);
}
