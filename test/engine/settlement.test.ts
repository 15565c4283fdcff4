import type { IDataObject } from 'n8n-workflow';

import { Baas } from '../../nodes/Baas/Baas.node';
import { useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { inListShape, LIST_SHAPES } from './harness/listShapes';
import { asDashboardUser, rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';

const FETCH = '/transaction/web/fetch_settlement_transactions';

// About half of the generated transactions are successful credits, each settled: roughly 1,000 settlements.
const fx = useBankFixture({ transactions: 2000 });

type Settlement = (typeof fx.bank.bank.settlements)[number];

/** The business's settlements from the sandbox's ledger: the oracle. */
const ledger = (keep: (s: Settlement) => boolean = () => true) =>
	fx.bank.bank.settlements.filter((s) => s.businessId === fx.bank.bank.main.id && keep(s));
const day = (s: Settlement) => new Date(s.settlementDateMs).toISOString().slice(0, 10);
const references = (records: IDataObject[]) => records.map((r) => r.reference as string);
const sorted = (values: string[]) => [...values].sort();
const web = asDashboardUser({ resource: 'settlement', operation: 'getAll' });

describe('Get Many', () => {
	describe.each(LIST_SHAPES)('in the %s list shape', (shape) => {
		inListShape(fx, shape);

		test('Return All returns every settlement exactly once, newest first, amounts as strings', async () => {
			const expected = ledger();
			expect(expected.length).toBeGreaterThan(500);
			const before = fx.count(FETCH);
			const run = await runNode(fx.credentials, web({ returnAll: true }));
			expect(run.error).toBeUndefined();
			const refs = references(run.json);
			expect(new Set(refs).size).toBe(refs.length);
			expect(sorted(refs)).toEqual(sorted(expected.map((s) => s.reference)));
			expect(refs[0]).toBe(expected.at(-1)!.reference);
			expect(fx.count(FETCH) - before).toBe(Math.floor(expected.length / 100) + 1);
			expect(run.json[0]).toEqual(
				expect.objectContaining({ account_number: expect.stringMatching(/^\d{10}$/), amount: expect.stringMatching(/^\d+\.\d{2}$/), status: 'success' }),
			);
			expect(run.json[0].settlement_date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
		});

		test.each(['served', 'asked'] as const)(
			'Return All from a bank capping its pages at 30 (pages numbered by the size %s) returns every settlement once, never a short list',
			async (pageOffsets) => {
				fx.bank.configure({ pageCap: 30, pageOffsets });
				try {
					const expected = ledger();
					const before = fx.count(FETCH);
					const run = await runNode(fx.credentials, web({ returnAll: true }));
					expect(run.error).toBeUndefined();
					const refs = references(run.json);
					expect(new Set(refs).size).toBe(refs.length);
					expect(sorted(refs)).toEqual(sorted(expected.map((s) => s.reference)));
					expect(fx.count(FETCH) - before).toBe(Math.floor(expected.length / 30) + 1);
				} finally {
					fx.bank.configure({ pageCap: null, pageOffsets: 'served' });
				}
			},
		);

		test.each([1, 50, 100, 333])('Limit %i returns exactly that many, the newest ones', async (limit) => {
			const run = await runNode(fx.credentials, web({ returnAll: false, limit }));
			expect(references(run.json)).toEqual(ledger().reverse().slice(0, limit).map((s) => s.reference));
		});
	});
});

describe('filters', () => {
	let memo: { day: string; start: string; end: string; reference: string } | undefined;
	const pick = () => {
		const all = ledger();
		return (memo ??= { day: day(all[600]), start: day(all[200]), end: day(all[400]), reference: all[321].reference });
	};
	const account = '0823100005';

	test.each<[string, () => IDataObject, (s: Settlement) => boolean]>([
		['account', () => ({ accountNumber: rl(account) }), (s) => s.accountNumber === account],
		['date range', () => ({ startDate: pick().start, endDate: pick().end }), (s) => day(s) >= pick().start && day(s) <= pick().end],
		['single day (wins over a range)', () => ({ date: pick().day, startDate: pick().start, endDate: pick().end }), (s) => day(s) === pick().day],
		['reference', () => ({ reference: pick().reference }), (s) => s.reference === pick().reference],
		['account and end date', () => ({ accountNumber: rl(account, 'id'), endDate: pick().end }), (s) => s.accountNumber === account && day(s) <= pick().end],
	])('%s', async (_name, filters, keep) => {
		const expected = ledger(keep).map((s) => s.reference);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(ledger().length);
		const run = await runNode(fx.credentials, web({ returnAll: true, filters: filters() }));
		expect(run.error).toBeUndefined();
		expect(sorted(references(run.json))).toEqual(sorted(expected));
	});

	test('status: every settlement is a success; none is pending', async () => {
		const success = await runNode(fx.credentials, web({ returnAll: true, filters: { status: 'success' } }));
		expect(success.json).toHaveLength(ledger().length);
		const pending = await runNode(fx.credentials, web({ returnAll: true, filters: { status: 'pending' } }));
		expect(pending.error).toBeUndefined();
		expect(pending.json).toEqual([]);
	});
});

describe('errors', () => {
	test('a bank refusal (41) fails the item; under continueOnFail it is an error item with the code', async () => {
		fx.bank.addFault({ match: FETCH, errorCode: '41', times: 10 });
		const failed = await runNode(fx.credentials, web({ returnAll: true }));
		expect(failed.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '41' } });
		const continued = await runNode(fx.credentials, web({ returnAll: true }, { continueOnFail: true }));
		expect(continued.json).toEqual([expect.objectContaining({ response_code: '41' })]);
	});

	test('code 80 is retried and the list completes', async () => {
		fx.bank.addFault({ match: FETCH, errorCode: '80', times: 1 });
		const run = await runNode(fx.credentials, web({ returnAll: false, limit: 20 }));
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(20);
	});

	test('the Settlement resource is offered to the dashboard user only (its endpoint is /web/ only)', () => {
		const operationsShownTo = (resource: string) =>
			new Baas().nodeVersions[1].description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
				?.displayOptions?.show?.authentication;
		expect(operationsShownTo('settlement')).toEqual(['dashboardUser']);
		expect(operationsShownTo('transaction')).toBeUndefined();
	});
});

describe('invalid input sends nothing', () => {
	test.each<[string, IDataObject, RegExp]>([
		['start after end', { filters: { startDate: '2025-11-02', endDate: '2025-11-01' } }, /Start Date must not be after End Date 2025-11-01 \(got "2025-11-02"\) in item 1/],
		['impossible day', { filters: { date: '2025-11-31' } }, /Date is not a real calendar date/],
		['account of 11 digits', { filters: { accountNumber: rl('={{ "08231000051" }}', 'id') } }, /Account Number must be exactly 10 digits/],
		['unknown status', { filters: { status: '={{ "settled" }}' } }, /Status must be one of failed, pending, success/],
		['over-long reference', { filters: { reference: `={{ "R".repeat(256) }}` } }, /Reference must be at most 255 characters/],
	])('%s', async (_name, parameters, message) => {
		await expectRejectedWithoutRequest(fx, web({ returnAll: true, ...parameters }), message);
	});
});
