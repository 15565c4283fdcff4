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
import { fuzz, report } from '../support/pollFuzz/summary';

/** Seeds of the short form, each run in both list shapes. */
const SEEDS = 1000;

describe('Poll Trigger against a model bank, on generated histories', () => {
	it(`emits every event of ${SEEDS} histories once, none of the history before it started, oldest first, in both list shapes`, async () => {
		const summary = await fuzz(1, SEEDS, ['documented', 'cursor']);
		// On failure: histories wrong by rule and shape, and the first seeds of each.
		expect(summary.wrong === 0 ? [] : report(summary, 1).slice(1)).toEqual([]);
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
});
