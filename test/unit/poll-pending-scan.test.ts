/**
 * The scan of the transfers pending at the start, read on at later polls (pendingScan.ts, continuePendingScan),
 * driven directly against a pending list served by page number that changes between polls as the bank's does:
 * transfers turning final leave it and move the rest up.
 */
import { Budget } from '../../nodes/BaasPollTrigger/budget';
import { emptyMemory } from '../../nodes/BaasPollTrigger/core/memory';
import type { Stream } from '../../nodes/BaasPollTrigger/events';
import type { StartRun } from '../../nodes/BaasPollTrigger/filters';
import { firstSeen } from '../../nodes/BaasPollTrigger/pending';
import { continuePendingScan } from '../../nodes/BaasPollTrigger/pendingScan';
import type { StreamState } from '../../nodes/BaasPollTrigger/state';
import { defaultPaging } from '../../nodes/BaasPollTrigger/state';

const ORIGIN_MS = Date.UTC(2026, 2, 10, 9);
const TRANSFERS = { name: 'transfers', filters: {} } as Stream;
/** Each transfer pending at the start (pN) was made the minute its number says before it; one made since (nN), after. */
const createdMs = (reference: string) => ORIGIN_MS + (reference.startsWith('n') ? 1 : -1) * Number(reference.slice(1)) * 60_000;

/** A run of one poll at `nowMs` with `requests` requests, the bank serving `list` (newest first) a record a page. */
function pollOf(nowMs: number, requests: number, list: string[]): StartRun & { pages: number[] } {
	const pages: number[] = [];
	const request = async (_context: unknown, _operation: string, query: { page: number; page_size: number }) => {
		pages.push(query.page);
		const from = (query.page - 1) * query.page_size;
		return list.slice(from, from + query.page_size).map((reference) => ({ reference_number: reference, created_at: new Date(createdMs(reference)).toISOString(), status: 'pending' }));
	};
	return {
		request: request as unknown as StartRun['request'],
		context: {} as StartRun['context'],
		budget: new Budget(requests),
		progressed: false,
		malformed: 0,
		settings: { events: ['TRANSFER_SUCCESS'], output: 'event', requestBudget: requests },
		variant: 'api',
		nowMs,
		pages,
	};
}

/** A transfers list whose start watched `watched` (at the first poll) and stopped its scan at `page`. */
function startedWith(watched: string[], page: number): StreamState {
	const pending = new Map(watched.map((reference) => [reference, firstSeen(createdMs(reference), ORIGIN_MS, [0])]));
	return { scope: 'api|', memory: emptyMemory(), lag: 0, floorMs: ORIGIN_MS, originMs: ORIGIN_MS, paging: defaultPaging(100), pending, failed: new Map(), pendingScan: { page, size: 1 } };
}

describe('Poll Trigger: the transfers pending at the start, read on at later polls (pendingScan.ts)', () => {
	it('climbs from the last page read until a page shows one it watches: transfers turning final above moved the rest up by two pages', async () => {
		// The first poll read p9, p8, p7 (pages 1-3). Before the next, p9 and p8 turned final: p6 and p5, never read,
		// now stand on pages 2 and 3, and p4 on page 4.
		const state = startedWith(['p9', 'p8', 'p7'], 3);
		const run = pollOf(ORIGIN_MS + 60_000, 10, ['p7', 'p6', 'p5', 'p4']);
		await continuePendingScan(run, state, TRANSFERS);
		// Reading page 3 again and then on (as scanEnd's reading did), p6 was never watched: its outcome lost.
		expect([...state.pending.keys()].sort()).toEqual(['p4', 'p5', 'p6', 'p7', 'p8', 'p9']);
		expect(run.pages).toEqual([3, 2, 1, 4, 5]);
	});

	it('climbs with at most half the requests a poll leaves it, so the scan always goes on down', async () => {
		// The first poll read p9, p8 and p7 (pages 1-3) and watched p9 only: the list had handled p8 and p7. Each later
		// poll can read three pages.
		const state = startedWith(['p9'], 3);
		for (const reference of ['p8', 'p7']) state.memory.seen.set(reference, createdMs(reference));
		const list = ['p9', 'p8', 'p7', 'p6', 'p5', 'p4'];
		for (let poll = 1; poll <= 4; poll++) await continuePendingScan(pollOf(ORIGIN_MS + poll * 60_000, 3, list), state, TRANSFERS);
		// Climbing until a page showed one it watched, every poll read pages 3, 2 and 1 and ran out: p6, p5 and p4
		// were never read (fuzz seed 32096: a page of one entry with no record under a transfer the list had handled).
		expect([...state.pending.keys()].sort()).toEqual(['p4', 'p5', 'p6', 'p9']);
	});

	it('ends a climb at a transfer made since the start: every one not yet read is older, so listed under it', async () => {
		// The one transfer pending at the start turned final; eight made since are pending, newest first. Each poll can
		// read three pages; the scan stood at page 1, its end seen (scanEnd), and reads on as the list grew.
		const state = startedWith([], 1);
		state.pendingScan = { page: 1, size: 1, ending: true };
		const list = ['n8', 'n7', 'n6', 'n5', 'n4', 'n3', 'n2', 'n1'];
		for (let poll = 1; poll <= 5; poll++) await continuePendingScan(pollOf(ORIGIN_MS + poll * 60_000, 3, list), state, TRANSFERS);
		// Climbing to page 1 at every poll (no transfer there was watched), the scan read the same pages over and over
		// and took every request of every poll from the lists' own work (fuzz seed 241: 5 events never came).
		expect(state.pendingScan).toBeUndefined();
		// Those are the list's to hand on, not watched as pending at the start.
		expect(state.pending.size).toBe(0);
	});

	it('ends in the poll whose climb read from a transfer it watched, or the list\'s top, down to the list\'s end', async () => {
		// The first poll read p9 and p8 (pages 1-2), not the end; both turned final before the next: the list is empty.
		const state = startedWith(['p9', 'p8'], 2);
		const run = pollOf(ORIGIN_MS + 60_000, 4, []);
		await continuePendingScan(run, state, TRANSFERS);
		// Going on down after it, the scan read page 3 too and ended only at the next poll, whose requests the status
		// look-ups of the watched transfers needed (engine poll-budget: their outcomes came a poll apart).
		expect(run.pages).toEqual([2, 1]);
		expect(state.pendingScan).toBeUndefined();
	});
});
