/**
 * The transfers pending when the trigger started, read page by page from the top of the bank's pending list: at the
 * first poll (start.ts) and, where it could not read them all, at the next ones, before any other list work (one
 * that turns final before it is read is lost: the list does not say when a status changed). Each one read is
 * watched (pending.ts), so its outcome is emitted once final.
 */
import type { Slot } from './core/memory';
import { warnAboutPendingAtStart } from './emitter';
import type { Stream } from './events';
import type { StartRun } from './filters';
import { pendingFilters } from './filters';
import type { PendingSet } from './pending';
import { firstSeen } from './pending';
import { readListPage } from './reader';
import { POLL_LIMITS } from './settings';
import type { StreamState } from './state';

type Scan = NonNullable<StreamState['pendingScan']>;

/**
 * Whether a transfer belongs to the list rather than to the watch of those pending at the start: one created since
 * the start (the list hands it on), or any the start did not read when it read the whole list.
 */
const listHandsOn = (state: Pick<StreamState, 'originMs' | 'unseenIsNew'>, createdMs: number) => state.unseenIsNew === true || createdMs >= state.originMs;

/**
 * Whether `slot` shows where the transfers not yet read can only lie under: one pending since the start that an
 * earlier poll watched, or one made since the start (newer than all of them, so listed above them). One this poll's
 * climb found does not end it: a climb finds transfers under others not yet read.
 */
function endsClimb(state: StreamState, run: StartRun, slot: Slot): boolean {
	if (slot.reference === undefined || slot.createdMs === undefined) return false;
	if (listHandsOn(state, slot.createdMs)) return true;
	const watched = state.pending.get(slot.reference);
	return watched !== undefined && watched.firstSeenMs < run.nowMs;
}

/**
 * Reads on at a later poll. First the last page read again, and the pages above it until one shows a transfer that
 * ends the climb (endsClimb): transfers turning final above it moved the rest up, by as many pages as turned final
 * (fuzz seed 105282: four, in a nine-page scan), and the first not yet read stands right under the lowest watched
 * one still pending. The climb takes at most half the requests the poll leaves it, so the scan always goes on down:
 * one that may take them all is made again at every poll and can go round for good (a page of entries with no
 * record, or of transfers the list handled, never ends a climb). Then as many pages after the page it stood on as
 * the poll leaves, until a short page, read again at the next poll (scanEnd); none where the climb read the list's end
 * and ended. Those created since the start are the list's to hand on; those it handled are not pending.
 */
export async function continuePendingScan(run: StartRun, state: StreamState, stream: Stream): Promise<void> {
	let scan: StreamState['pendingScan'] = state.pendingScan;
	if (scan === undefined) return;
	const spec = { filters: pendingFilters(run, stream), variant: run.variant };
	const skip = (reference: string, createdMs: number) => listHandsOn(state, createdMs) || state.memory.seen.has(reference);
	const highest = Math.max(1, scan.page + 1 - Math.ceil(run.budget.left / 2));
	let endRead = false;
	for (let page = scan.page; page >= highest; page--) {
		const again = await readListPage(run, spec, { page, size: scan.size });
		if (again === undefined) return;
		endRead ||= again.slots.length < scan.size;
		const ended = again.slots.some((slot) => endsClimb(state, run, slot)) || page === 1;
		watchPending(run, state.pending, again.slots, skip);
		if (ended && endRead) {
			// The climb read from where the unread ones begin down to the list's end: the scan is done.
			state.pendingScan = undefined;
			return;
		}
		if (ended) break;
	}
	while (scan !== undefined && run.budget.left > 0) {
		const { page, size, ending }: Scan = scan;
		const next = await readListPage(run, spec, { page: page + 1, size });
		if (next === undefined) return;
		watchPending(run, state.pending, next.slots, skip);
		const capped: boolean = next.slots.length === size && page + 1 >= POLL_LIMITS.maxPending / size;
		if (capped) warnAboutPendingAtStart(run, size, 'tooMany');
		// A short page ends the scan at the next poll's reading of it and the page before (scanEnd), or now when
		// that was this one.
		scan = capped || (next.slots.length < size && ending === true) ? undefined : next.slots.length < size ? scanEnd(page, size) : { page: page + 1, size };
		state.pendingScan = scan;
		if (scan?.ending === true) return;
	}
}

/**
 * A scan that saw a short page after page `page` ends at the next poll, which reads both again, climbing from the
 * first if it shows no anchor: a transfer that turned final between two reads moved the rest up, so one on the short
 * page may stand on a page read before it now (a start reading two pages of one record, the upper turning successful
 * between them, never watched the lower).
 */
export const scanEnd = (page: number, size: number): Scan => ({ page: Math.max(1, page), size, ending: true });

/**
 * Watches the transfers `slots` shows pending, so their outcome is emitted when final; not those `skip` names, nor
 * those the Start From backfill reads (pending or not: watching them too would emit one outcome twice).
 */
export function watchPending(run: StartRun, pending: PendingSet, slots: Slot[], skip: (reference: string, createdMs: number) => boolean = () => false): void {
	const startFromMs = run.settings.startFromMs;
	for (const { reference, createdMs } of slots) {
		if (reference === undefined || createdMs === undefined || pending.has(reference) || skip(reference, createdMs)) continue;
		if (startFromMs === undefined || createdMs < startFromMs) pending.set(reference, firstSeen(createdMs, run.nowMs, POLL_LIMITS.recheckDelaysMs));
	}
}
