import type { IDataObject } from 'n8n-workflow';

import { SIMPLE_TRANSACTION_FIELDS } from '../../nodes/common/actions/simplifiedFields';
import { useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { inListShape, LIST_SHAPES } from './harness/listShapes';
import { asApiClient, asDashboardUser, rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';

const GENERATED = 10_000;
const FETCH_API = '/transaction/api/fetch_transactions';
const FETCH_WEB = '/transaction/web/fetch_transactions';

const fx = useBankFixture({ transactions: GENERATED });

type Tx = (typeof fx.bank.bank.transactions)[number];

/** The business's transactions straight from the sandbox's ledger: the oracle the node's output is checked against. */
const ledger = (keep: (t: Tx) => boolean = () => true) =>
	fx.bank.bank.transactions.filter((t) => t.businessId === fx.bank.bank.main.id && keep(t));
const day = (t: Tx) => new Date(t.createdAtMs).toISOString().slice(0, 10);
const references = (records: IDataObject[]) => records.map((r) => r.reference_number as string);
const sorted = (values: string[]) => [...values].sort();

const api = asApiClient({ resource: 'transaction', operation: 'getAll' });
const web = asDashboardUser({ resource: 'transaction', operation: 'getAll' });

describe('Get Many: Return All and Limit', () => {
	describe.each(LIST_SHAPES)('in the %s list shape', (shape) => {
		inListShape(fx, shape);
		// Page numbers in either shape: the items carry `id` in the cursor shape only.
		const idField = shape === 'cursor' ? ['id'] : [];

		test(`Return All over ${GENERATED} transactions returns each exactly once (API client)`, async () => {
			const expected = ledger();
			expect(expected.length).toBeGreaterThanOrEqual(GENERATED);
			const requestsBefore = fx.count(FETCH_API);
			const started = performance.now();
			const run = await runNode(fx.credentials, api({ returnAll: true, simplify: false }));
			const elapsed = performance.now() - started;
			expect(run.error).toBeUndefined();
			const refs = references(run.json);
			expect(refs).toHaveLength(expected.length);
			expect(new Set(refs).size).toBe(refs.length);
			expect(Object.keys(run.json[0])).toEqual(expect.arrayContaining([...idField, 'reference_number']));
			expect(sorted(refs)).toEqual(sorted(expected.map((t) => t.reference)));
			// Newest first, as the bank lists them.
			expect(refs[0]).toBe(expected.at(-1)!.reference);
			expect(refs.at(-1)).toBe(expected[0].reference);
			const pages = fx.count(FETCH_API) - requestsBefore;
			expect(pages).toBe(Math.floor(expected.length / 100) + 1);
			// Amounts stay the bank's decimal strings.
			for (const record of run.json) expect(record.amount).toMatch(/^\d+\.\d{2}$/);
			process.stdout.write(`Return All (API client, ${shape} shape): ${refs.length} transactions, ${pages} requests, ${elapsed.toFixed(0)} ms\n`);
		});

		test(`Return All over ${GENERATED} transactions returns each exactly once (dashboard user)`, async () => {
			const started = performance.now();
			const run = await runNode(fx.credentials, web({ returnAll: true }));
			const elapsed = performance.now() - started;
			expect(run.error).toBeUndefined();
			const refs = references(run.json);
			expect(new Set(refs).size).toBe(refs.length);
			expect(sorted(refs)).toEqual(sorted(ledger().map((t) => t.reference)));
			// The dashboard variant: no account name, category or channel; narration instead of remarks.
			expect(Object.keys(run.json[0]).sort()).toEqual(
				['account_number', 'amount', 'created_at', ...idField, 'narration', 'reference_number', 'status', 'transaction_type'].sort(),
			);
			process.stdout.write(`Return All (dashboard, ${shape} shape): ${refs.length} transactions, ${elapsed.toFixed(0)} ms\n`);
		});

		test.each([1, 50, 100, 101, 250, 1234])('Limit %i returns exactly that many, the newest ones', async (limit) => {
			const run = await runNode(fx.credentials, api({ returnAll: false, limit }));
			expect(run.error).toBeUndefined();
			expect(references(run.json)).toEqual(ledger().reverse().slice(0, limit).map((t) => t.reference));
		});

		test('the default Limit is 50', async () => {
			const run = await runNode(fx.credentials, web({}));
			expect(run.json).toHaveLength(50);
		});
	});
});

describe('filters', () => {
	const account = '0823100004';
	/** Days and a reference taken from the generated history (its span depends on the count), computed once. */
	let memo: { day: string; early: string; earlyEnd: string; lateStart: string; reference: string } | undefined;
	const pick = () =>
		(memo ??= {
			day: day(ledger()[6000]),
			early: day(ledger()[0]),
			earlyEnd: day(ledger()[1000]),
			lateStart: day(ledger()[9800]),
			reference: ledger((t) => t.type === 'debit' && t.channel === 'intra').at(-7)!.reference,
		});

	test.each<[string, () => IDataObject, (t: Tx) => boolean]>([
		['account', () => ({ accountNumber: rl(account) }), (t) => t.accountNumber === account],
		['account by number and date range', () => ({ accountNumber: rl(account, 'id'), startDate: '2025-11-01', endDate: '2025-11-30' }), (t) =>
			t.accountNumber === account && day(t) >= '2025-11-01' && day(t) <= '2025-11-30'],
		['single day', () => ({ date: pick().day }), (t) => day(t) === pick().day],
		['single day over a range (the day wins)', () => ({ date: pick().day, startDate: pick().early, endDate: pick().earlyEnd }), (t) =>
			day(t) === pick().day],
		['start date only', () => ({ startDate: pick().lateStart }), (t) => day(t) >= pick().lateStart],
		['type', () => ({ transactionType: 'debit', endDate: '2025-09-30' }), (t) => t.type === 'debit' && day(t) <= '2025-09-30'],
		['status', () => ({ status: 'pending' }), (t) => t.status === 'pending'],
		['category', () => ({ transactionCategory: 'transfer', date: pick().day }), (t) => t.category === 'transfer' && day(t) === pick().day],
		['channel', () => ({ channel: 'intra', startDate: pick().lateStart }), (t) => t.channel === 'intra' && day(t) >= pick().lateStart],
		['reference', () => ({ referenceNumber: pick().reference }), (t) => t.reference === pick().reference],
		['search (any case, narration or reference)', () => ({ search: 'SALARY' }), (t) => t.narration.toLowerCase().includes('salary')],
		['search by part of a reference', () => ({ search: `-${pick().day.replace(/-/g, '')}-` }), (t) =>
			t.reference.includes(`-${pick().day.replace(/-/g, '')}-`)],
		['failed credits of one account', () => ({ accountNumber: rl('0823100001'), transactionType: 'credit', status: 'failed' }), (t) =>
			t.accountNumber === '0823100001' && t.type === 'credit' && t.status === 'failed'],
	])('%s', async (_name, filters, keep) => {
		const expected = ledger(keep).map((t) => t.reference);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(ledger().length);
		for (const options of [api({ returnAll: true, filters: filters() }), web({ returnAll: true, filters: filters() })]) {
			const run = await runNode(fx.credentials, options);
			expect(run.error).toBeUndefined();
			const refs = references(run.json);
			expect(new Set(refs).size).toBe(refs.length);
			expect(sorted(refs)).toEqual(sorted(expected));
		}
	});

	test('each input item runs its own query; output keeps item order and pairing', async () => {
		const accounts = ['0823100002', '0823000002', '0823100006'];
		const run = await runNode(
			fx.credentials,
			api({ returnAll: true, filters: { accountNumber: rl('={{ $json.account }}', 'id'), date: '={{ $json.day }}' } }, {
				items: accounts.map((a) => ({ account: a, day: pick().day })),
			}),
		);
		expect(run.error).toBeUndefined();
		const expected = accounts.flatMap((a, item) =>
			ledger((t) => t.accountNumber === a && day(t) === pick().day).reverse().map((t) => ({ ref: t.reference, item })),
		);
		expect(run.items.map((i) => ({ ref: i.json.reference_number, item: (i.pairedItem as { item: number }).item }))).toEqual(expected);
		expect(new Set(expected.map((e) => e.item)).size).toBeGreaterThan(1);
	});
});

describe('Simplify', () => {
	test('is on by default for the API client and keeps the main fields; off returns all 10 documented fields', async () => {
		const simple = await runNode(fx.credentials, api({ returnAll: false, limit: 5 }));
		for (const record of simple.json) expect(Object.keys(record)).toEqual([...SIMPLE_TRANSACTION_FIELDS]);
		const full = await runNode(fx.credentials, api({ returnAll: false, limit: 5, simplify: false }));
		for (const record of full.json) {
			expect(Object.keys(record)).toHaveLength(10);
			expect(record).toHaveProperty('transaction_category');
		}
		expect(simple.json.map((r) => r.amount)).toEqual(full.json.map((r) => r.amount));
	});
});

describe('bank errors', () => {
	test('60 (customer not active) on the integration API fails the item with that code', async () => {
		fx.bank.addFault({ match: FETCH_API, errorCode: '60', times: 1 });
		const run = await runNode(fx.credentials, api({ returnAll: true }));
		expect(run.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '60' } });
		expect(run.error!.description).toMatch(/not active/);
	});

	test('41 on the dashboard API, and continueOnFail gives an error item with response_code', async () => {
		fx.bank.addFault({ match: FETCH_WEB, errorCode: '41', times: 5 });
		const run = await runNode(fx.credentials, web({ returnAll: true }, { continueOnFail: true }));
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ response_code: '41' })]);
	});
});

describe('invalid input sends nothing', () => {
	test.each<[string, IDataObject, RegExp]>([
		['start after end', { filters: { startDate: '2025-12-31', endDate: '2025-12-01' } }, /Start Date must not be after End Date 2025-12-01.*item 1/],
		['impossible date', { filters: { date: '2025-13-01' } }, /Date is not a real calendar date \(got "2025-13-01"\)/],
		['date in another format', { filters: { endDate: '12/31/2025' } }, /End Date must be a date written YYYY-MM-DD/],
		['short account number', { filters: { accountNumber: rl('={{ "082310000" }}', 'id') } }, /Account Number must be exactly 10 digits/],
		['unknown status', { filters: { status: '={{ "done" }}' } }, /Status must be one of failed, pending, success \(got "done"\)/],
		['unknown type', { filters: { transactionType: '={{ "refund" }}' } }, /Type must be one of credit, debit/],
		['blank search', { filters: { search: '={{ "   " }}' } }, /Search must not be empty/],
		['limit of zero', { returnAll: false, limit: '={{ 0 }}' }, /Limit must be at least 1/],
	])('%s', async (_name, parameters, message) => {
		await expectRejectedWithoutRequest(fx, api(parameters), message);
		await expectRejectedWithoutRequest(fx, web(parameters), message);
	});
});
