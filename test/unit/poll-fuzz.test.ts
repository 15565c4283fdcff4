/**
 * The Poll Trigger's logic (pollOnce) fuzzed against a model bank written from the contract, with no engine and no
 * HTTP (test/support/pollFuzz): generated histories of a bank and of n8n, checked against the bank's ledger by the
 * rules of docs/polling.md. The long form and the sweep: `npm run fuzz:poll` (scripts/poll-fuzz.ts). A failing
 * history is replayed with `npm run fuzz:poll -- --explain SEED --shape documented|cursor`.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { PollFn } from '../support/pollFuzz/driver';
import { runHistory } from '../support/pollFuzz/driver';
import { generate } from '../support/pollFuzz/history';
import { leastRequestsFor } from '../../nodes/BaasPollTrigger/settings';
import type { Rule } from '../support/pollFuzz/oracle';
import type { Summary } from '../support/pollFuzz/summary';
import { fuzz } from '../support/pollFuzz/summary';

/** Seeds of the short form, each run in both list shapes. */
const SEEDS = 1000;

/**
 * Histories of the short form the trigger still gets wrong, by rule (docs/polling.md#what-the-fuzzer-still-finds).
 * A change may lower these — then lower them here — and never raise them. Every other rule (an event twice, history
 * emitted, an event not in the ledger or not selected, out of order, missing after the drain, a reversal not
 * reported) must hold in every history.
 */
const STILL_OPEN: Partial<Record<Rule, number>> = {
	"pending transfer's outcome not emitted": 2,
};

describe('Poll Trigger against a model bank, on generated histories', () => {
	let summary: Summary;
	beforeAll(async () => {
		summary = await fuzz(1, SEEDS, ['documented', 'cursor']);
	});

	it(`no event of ${SEEDS} histories (both list shapes) is emitted twice, from history, out of the ledger or out of order, none is missing, and every reversal is reported`, () => {
		const broken = Object.entries(summary.byRule).filter(([rule]) => !(rule in STILL_OPEN));
		// On failure: the rule, and its first seeds (replay: npm run fuzz:poll -- --explain SEED --shape SHAPE).
		expect(broken.map(([rule, found]) => ({ rule, histories: found?.histories, first: found?.first.slice(0, 3) }))).toEqual([]);
	});

	it('gets no more histories wrong than it did, rule by rule (liveness still open)', () => {
		const worse = Object.entries(STILL_OPEN)
			.map(([rule, most]) => ({ rule, most, now: summary.byRule[rule as Rule]?.histories ?? 0 }))
			.filter(({ most, now }) => now > most);
		expect(worse).toEqual([]);
	});
});

describe("Requests per Poll's minimum gives every list its place page and the look-up its records take (leastRequestsFor)", () => {
	// Transfer Failed behind a bank serving one record a page: two lists (transfers, failed transfers), each of whose
	// records takes a status look-up, and new records held for the check behind the place. With one request less
	// (the minimum before it counted each list's look-up), the transfers list read nothing in every other poll and its
	// check seldom a page: an event was still owed at the end of the drain.
	const histories = [16648, 7127, 19245].map((seed) => generate(seed, 'documented'));
	const missing = async (requests: (least: number) => number) => {
		const found: string[] = [];
		for (const h of histories) {
			const least = leastRequestsFor(h.settings.events);
			const outcome = await runHistory({ ...h, settings: { ...h.settings, requestBudget: requests(least) } });
			found.push(...outcome.violations.map((v) => `${h.seed} ${v.rule}`));
		}
		return found;
	};

	it('at the minimum every event comes, in order', async () => {
		expect(histories.map((h) => [h.settings.events.includes('TRANSFER_FAILED'), h.pageCap])).toEqual(histories.map(() => [true, 1]));
		expect(await missing((least) => least)).toEqual([]);
	});

	it('one request less and events are still owed at the end of the drain', async () => {
		expect((await missing((least) => least - 1)).filter((found) => found.endsWith('missing after the drain')).length).toBeGreaterThan(0);
	});
});

describe('the ledger check itself', () => {
	/** Where the driver sees a stream's place start: the poll that first saves it. */
	const start = (context: Parameters<PollFn>[0]['context']) => {
		const data = context.getWorkflowStaticData('node');
		data.streams ??= { collections: {}, transfers: {} };
	};
	/** A trigger that emits every record on the page it reads, at every poll: history, repeats, pending ones. */
	const emitsAllItLists: PollFn = async ({ request, context, variant }) => {
		start(context);
		const listed = await request<IDataObject[]>(context, 'fetchTransactions', { filters: {}, page: 1, page_size: 100, limit: 100 }, { variant });
		const items: INodeExecutionData[] = listed
			.filter((r) => r !== null && typeof r.reference_number === 'string')
			.map((r) => ({ json: { event: r.transaction_type === 'credit' ? 'COLLECTION_SUCCESS' : 'TRANSFER_SUCCESS', data: r } }));
		return items.length === 0 ? null : [items];
	};
	/** A trigger that emits one collection a poll, the newest it has not emitted: older ones come at later polls. */
	const newestFirst: PollFn = async ({ request, context, variant }) => {
		start(context);
		const data = context.getWorkflowStaticData('node') as { done?: string[] };
		const done = new Set(data.done ?? []);
		const filters = { transaction_type: 'credit', transaction_category: 'collection' };
		const listed = await request<IDataObject[]>(context, 'fetchTransactions', { filters, page: 1, page_size: 100, limit: 100 }, { variant });
		const fresh = listed.filter((r) => r !== null && typeof r.reference_number === 'string' && !done.has(r.reference_number)).slice(0, 1);
		data.done = [...done, ...fresh.map((r) => r.reference_number as string)];
		return fresh.length === 0 ? null : [fresh.map((r) => ({ json: { event: 'COLLECTION_SUCCESS', data: r } }))];
	};
	/** A trigger that never emits. */
	const silent: PollFn = async ({ context }) => {
		start(context);
		return null;
	};

	it('names the rules such triggers break', async () => {
		const broken = new Set<string>();
		for (let seed = 1; seed <= 40; seed++) {
			const h = generate(seed, 'documented');
			for (const v of (await runHistory(h, undefined, emitsAllItLists)).violations) broken.add(v.rule);
			for (const v of (await runHistory(h, undefined, silent)).violations) broken.add(v.rule);
			for (const v of (await runHistory(h, undefined, newestFirst)).violations) broken.add(v.rule);
		}
		for (const rule of ['emitted twice', 'history emitted', 'outcome not in the ledger', 'event not selected', 'missing after the drain', "pending transfer's outcome not emitted", 'reversal not reported', 'out of order within a poll', 'older record listed before a newer one was emitted came later', 'a record the list does not hold']) {
			expect([...broken]).toContain(rule);
		}
	});

	it('tells a trigger going round in a cycle from a slow one: the events it misses say how often its saved state came back', async () => {
		/** A trigger that never emits, its saved state counting its polls (`of`: modulo). */
		const counting =
			(of: number): PollFn =>
			async ({ context }) => {
				start(context);
				const data = context.getWorkflowStaticData('node') as { streams: { round?: number } };
				data.streams = { ...data.streams, round: ((data.streams.round ?? 0) + 1) % of };
				return null;
			};
		const missing = async (pollFn: PollFn) => {
			for (let seed = 1; seed <= 40; seed++) {
				const found = (await runHistory(generate(seed, 'documented'), undefined, pollFn)).violations.find((v) => v.rule === 'missing after the drain');
				if (found !== undefined) return found.detail;
			}
			return '';
		};
		expect(await missing(counting(3))).toMatch(/in a cycle: the saved state came back every 3 polls of the drain/);
		expect(await missing(silent)).toMatch(/in a cycle: the saved state came back every 1 poll of the drain/);
		// Its state never the same twice: it may yet get somewhere, given more polls than the drain's bound.
		expect(await missing(counting(Infinity))).not.toMatch(/in a cycle/);
	});
});
