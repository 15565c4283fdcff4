import type { IDataObject } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { READING_PAGE_SIZE } from '../../nodes/common/actions/reconciliation/pages';
import { useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { inListShape, LIST_SHAPES } from './harness/listShapes';
import { asApiClient, asDashboardUser } from './harness/nodeParameters';
import { collect, dayOf, leaveCollectionAs, outcomeOf } from './harness/reconciliation';
import { runNode } from './harness/runNode';

// About half of the generated history is successful collections: some 1,400 over 120 days, 14 pages.
const fx = useBankFixture({ transactions: 3000 });
afterEach(() => fx.bank.configure({ pageCap: null, pageOffsets: 'served' }));

const FETCH_API = '/transaction/api/fetch_transactions';
const FETCH_WEB = '/transaction/web/fetch_transactions';
const api = asApiClient({ resource: 'reconciliation', operation: 'matchPayments' });
const web = asDashboardUser({ resource: 'reconciliation', operation: 'matchPayments' });

type Tx = (typeof fx.bank.bank.transactions)[number];
const history = (keep: (t: Tx) => boolean) =>
	fx.bank.bank.transactions.filter((t) => t.businessId === fx.bank.bank.main.id && t.type === 'credit' && t.category === 'collection' && keep(t));
const amountOf = (t: Tx) => `${t.amount / 100n}.${String(t.amount % 100n).padStart(2, '0')}`;

describe.each(LIST_SHAPES)('Match Expected Payments (%s list shape)', (shape) => {
	inListShape(fx, shape);
	beforeEach(() => fx.bank.reset());

	test.each([
		['API client', api, FETCH_API],
		['dashboard user', web, FETCH_WEB],
	])('by virtual account, every outcome; the rows keep their own columns (%s)', async (_who, as, route) => {
		const paid = async (account: string, amount: string) => collect(fx, { account_number: account, amount });
		const first = await paid('0823100001', '1500');
		await paid('0823100002', '1000.00');
		await paid('0823100003', '750');
		await paid('0823100004', '1200');
		await paid('0823100004', '800');
		await paid('0823100005', '300');
		await paid('0823100005', '300');
		const pending = await paid('0823000002', '250');
		const failed = await paid('0823000002', '260');
		leaveCollectionAs(fx, String(pending.reference_number), 'pending');
		leaveCollectionAs(fx, String(failed.reference_number), 'failed');
		const stray = await paid('0823000001', '999.99');
		const day = dayOf(first.created_at);

		const rows: IDataObject[] = [
			{ customer: 'Ada', account_number: '0823100001', amount: '1500.00', invoice: { id: 1, lines: [1, 2] } },
			{ customer: 'Bola', account_number: '0823100002', amount: '1,500.00', note: '' },
			{ customer: 'Chidi', account_number: '0823100003', amount: 500 },
			{ customer: 'Dayo', account_number: '0823100004', amount: '2000' },
			{ customer: 'Efe', account_number: '0823100005', amount: '300.00' },
			{ customer: 'Femi', account_number: '0823100006', amount: '400.00' },
			{ customer: 'Gbenga', account_number: '0823000002', amount: '250.00' },
			{ customer: 'Hauwa', account_number: ' 0823000002 ', amount: '260.00' },
		];
		const before = fx.count(route);
		const run = await runNode(fx.credentials, as({ matchBy: 'virtualAccount', startDate: day, endDate: day }, { items: rows }));
		expect(run.error).toBeUndefined();
		expect(fx.count(route) - before).toBe(2);
		expect(run.json.slice(0, 8).map((json) => [json.customer, json.reconciliation_outcome, json.reconciliation_difference])).toEqual([
			['Ada', 'matched', '0.00'],
			['Bola', 'underpaid', '-500.00'],
			['Chidi', 'overpaid', '250.00'],
			['Dayo', 'paid in parts', '0.00'],
			['Efe', 'paid twice', '300.00'],
			['Femi', 'not paid yet', '-400.00'],
			['Gbenga', 'pending', '-250.00'],
			['Hauwa', 'failed', '-260.00'],
		]);
		// Every column of the row as it came, then the reconciliation's own fields.
		rows.forEach((row, index) => expect(run.json[index]).toEqual({ ...row, ...outcomeOf(run.json[index]) }));
		expect(outcomeOf(run.json[1])).toEqual({
			reconciliation_outcome: 'underpaid',
			reconciliation_expected: '1500.00',
			reconciliation_paid: '1000.00',
			reconciliation_difference: '-500.00',
			reconciliation_references: expect.stringMatching(/^COL-/),
			reconciliation_note: 'short by NGN 500.00',
		});
		expect(run.json[3].reconciliation_references).toMatch(/^COL-\S+, COL-\S+$/);
		expect(run.json[5].reconciliation_note).toBe(`no payment received on ${day}`);
		expect(run.items.slice(0, 8).map((item) => item.pairedItem)).toEqual(rows.map((_row, item) => ({ item })));
		// Then the money nobody expected.
		expect(run.json.slice(8)).toEqual([
			expect.objectContaining({ reference_number: stray.reference_number, account_number: '0823000001', amount: '999.99', reconciliation_outcome: 'unexpected', reconciliation_paid: '999.99' }),
		]);
	});

	test('Add Totals ends with one item: the count and sums of each outcome as decimal strings, and lines for a chat', async () => {
		const first = await collect(fx, { account_number: '0823100001', amount: '1500' });
		await collect(fx, { account_number: '0823100002', amount: '1000.00' });
		await collect(fx, { account_number: '0823000001', amount: '0.10' });
		await collect(fx, { account_number: '0823000001', amount: '0.20' });
		const day = dayOf(first.created_at);
		const rows = [
			{ account_number: '0823100001', amount: '1500.00' },
			{ account_number: '0823100002', amount: '1500.00' },
			{ account_number: '0823100006', amount: '400.00' },
		];
		const run = await runNode(fx.credentials, api({ matchBy: 'virtualAccount', startDate: day, endDate: day, options: { addTotals: true } }, { items: rows }));
		expect(run.error).toBeUndefined();
		const totals = run.json.at(-1)!;
		const unexpected = run.json.filter((json) => json.reconciliation_outcome === 'unexpected');
		const received = unexpected.reduce((sum, json) => sum + BigInt(String(json.reconciliation_paid).replace('.', '')), 0n);
		const naira = (kobo: bigint) => `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}`;
		expect(totals).toEqual({
			reconciliation_outcome: 'totals',
			reconciliation_start_date: day,
			reconciliation_end_date: day,
			reconciliation_expected_rows: 3,
			reconciliation_unexpected: unexpected.length,
			reconciliation_totals: {
				matched: { count: 1, expected: '1500.00', paid: '1500.00' },
				underpaid: { count: 1, expected: '1500.00', paid: '1000.00' },
				'not paid yet': { count: 1, expected: '400.00', paid: '0.00' },
				unexpected: { count: unexpected.length, expected: '0.00', paid: naira(received) },
			},
			reconciliation_summary: [
				`3 expected payments, ${unexpected.length} unexpected`,
				'matched: 1, expected NGN 1500.00, paid NGN 1500.00',
				'underpaid: 1, expected NGN 1500.00, paid NGN 1000.00',
				'not paid yet: 1, expected NGN 400.00, paid NGN 0.00',
				`unexpected: ${unexpected.length}, received NGN ${naira(received)}`,
			].join('\n'),
		});
		expect(unexpected.length).toBeGreaterThanOrEqual(2);
		expect(run.items.at(-1)!.pairedItem).toEqual(rows.map((_row, item) => ({ item })));
	});

	test('by reference: 0.10 against 0.1, 1,500.00, amounts beyond 2^53 kobo, two invoices with one reference, tolerance', async () => {
		const at = await collect(fx, { account_number: '0823100001', amount: '0.10', reference: 'INV-DEC' });
		await collect(fx, { account_number: '0823100001', amount: '1500', reference: 'INV-GROUPED' });
		await collect(fx, { account_number: '0823000001', amount: '90071992547409.92', reference: 'INV-BIG' });
		await collect(fx, { account_number: '0823100002', amount: '700', reference: 'INV-SAME' });
		await collect(fx, { account_number: '0823100003', amount: '999.50', reference: 'INV-TOL' });
		const day = dayOf(at.created_at);
		const rows = [
			{ ref: 'INV-DEC', due: 0.1 },
			{ ref: 'inv-grouped', due: '1,500.00' },
			{ ref: 'INV-BIG', due: '90071992547409.93' },
			{ ref: 'INV-SAME', due: '300.00' },
			{ ref: 'INV-SAME', due: '700.00' },
			{ ref: 'INV-TOL', due: '1000' },
		];
		const run = await runNode(
			fx.credentials,
			api({ matchBy: 'reference', referenceField: 'ref', amountField: 'due', startDate: day, endDate: day, options: { tolerance: '0.50', includeUnexpected: false } }, { items: rows }),
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => [json.ref, json.reconciliation_outcome, json.reconciliation_paid, json.reconciliation_note])).toEqual([
			['INV-DEC', 'matched', '0.10', 'paid in full'],
			['inv-grouped', 'matched', '1500.00', 'paid in full'],
			// One kobo apart beyond 2^53 kobo is seen (a float would call them equal), and is within the tolerance.
			['INV-BIG', 'matched', '90071992547409.92', 'paid in full (NGN 0.01 short, within the tolerance)'],
			['INV-SAME', 'not paid yet', '0.00', `no payment received on ${day}`],
			['INV-SAME', 'matched', '700.00', 'paid in full'],
			['INV-TOL', 'matched', '999.50', 'paid in full (NGN 0.50 short, within the tolerance)'],
		]);
	});
});

describe('Match Expected Payments: every page of a long period', () => {
	const start = '2025-01-01';
	const end = '2026-12-31';
	/** 600 of the history's successful collections expected by reference, 5 never paid. */
	const expectedRows = () => [
		...history((t) => t.status === 'success')
			.slice(0, 600)
			.map((t) => ({ reference: t.reference, amount: amountOf(t) })),
		...Array.from({ length: 5 }, (_, i) => ({ reference: `NEVER-${i}`, amount: '10.00' })),
	];
	const parameters = { matchBy: 'reference', startDate: start, endDate: end };
	beforeAll(() => fx.bank.reset());

	test.each([
		['pages as asked', null, 'served'],
		['a bank capping its pages at 30', 30, 'served'],
		['a bank capping its pages at 30 and numbering them by the size asked', 30, 'asked'],
	] as const)('reads the whole period: %s', async (_name, pageCap, pageOffsets) => {
		fx.bank.configure({ pageCap, pageOffsets });
		const successes = history((t) => t.status === 'success');
		expect(successes.length).toBeGreaterThan(1000);
		const before = fx.count(FETCH_API);
		const run = await runNode(fx.credentials, api(parameters, { items: expectedRows() }));
		expect(run.error).toBeUndefined();
		const outcomes = run.json.map((json) => json.reconciliation_outcome);
		expect(outcomes.slice(0, 600)).toEqual(Array(600).fill('matched'));
		expect(outcomes.slice(600, 605)).toEqual(Array(5).fill('not paid yet'));
		expect(outcomes.slice(605)).toEqual(Array(successes.length - 600).fill('unexpected'));
		const pageSize = pageCap ?? READING_PAGE_SIZE;
		const all = history(() => true).length;
		expect(fx.count(FETCH_API) - before).toBe(Math.floor(all / pageSize) + 1);
	});

	test('a page that fails mid-read fails the run, saying the reconciliation was not made; no partial result', async () => {
		const retryBase = REQUEST_LIMITS.retryBaseMs;
		REQUEST_LIMITS.retryBaseMs = 10;
		// Pages of 100 (the period holds more than 1,000 transactions): a fourth page exists to fail.
		fx.bank.configure({ pageCap: 100 });
		let served = 0;
		const off = fx.bank.onListServed(() => {
			if (++served === 3) fx.bank.addFault({ match: 'fetch_transactions', errorCode: '80', times: 100 });
		});
		try {
			const run = await runNode(fx.credentials, api(parameters, { items: expectedRows() }));
			expect(run.error?.message).toMatch(
				/^The reconciliation was not made: page 4 of the collections could not be read\. Nothing partial was returned; run it again \(the bank's list is only read\)\. The bank said: /,
			);
			expect(run.json).toEqual([]);
			const continued = await runNode(fx.credentials, api(parameters, { items: expectedRows(), continueOnFail: true }));
			expect(continued.json).toEqual([expect.objectContaining({ error: expect.stringMatching(/^The reconciliation was not made/) })]);
		} finally {
			off();
			REQUEST_LIMITS.retryBaseMs = retryBase;
		}
	});
});

describe('Match Expected Payments from JSON (an AI agent, or one item holding the list)', () => {
	beforeEach(() => fx.bank.reset());

	test('the same outcomes as from items; each row keeps its columns and is paired with the one input item', async () => {
		const first = await collect(fx, { account_number: '0823100001', amount: '1500' });
		await collect(fx, { account_number: '0823100002', amount: '1000.00' });
		const day = dayOf(first.created_at);
		const rows = [
			{ customer: 'Ada', account_number: '0823100001', amount: '1500.00' },
			{ customer: 'Bola', account_number: '0823100002', amount: 1500 },
			{ customer: 'Femi', account_number: '0823100006', amount: '400.00' },
		];
		const run = await runNode(
			fx.credentials,
			api({ startDate: day, endDate: day, expectedFrom: 'json', expectedJson: JSON.stringify(rows), options: { includeUnexpected: false, addTotals: true } }, { items: [{ batch: 7 }] }),
		);
		expect(run.error).toBeUndefined();
		expect(run.json.slice(0, 3).map((json) => [json.customer, json.reconciliation_outcome, json.reconciliation_difference])).toEqual([
			['Ada', 'matched', '0.00'],
			['Bola', 'underpaid', '-500.00'],
			['Femi', 'not paid yet', '-400.00'],
		]);
		rows.forEach((row, index) => expect(run.json[index]).toEqual({ ...row, ...outcomeOf(run.json[index]) }));
		expect(run.json[3]).toMatchObject({ reconciliation_outcome: 'totals' });
		expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }, [{ item: 0 }]]);
	});
});

describe('Match Expected Payments: invalid input sends nothing', () => {
	const day = { startDate: '2026-01-01', endDate: '2026-01-01' };
	test.each<[string, IDataObject, IDataObject[], RegExp]>([
		['an amount with 3 decimals', day, [{ account_number: '0823100001', amount: '1' }, { account_number: '0823100001', amount: '1.005' }], /^Expected payment in item 2: the column "amount" \(Amount Field\) must be a positive amount with at most 2 decimals.*The reconciliation was not made \(nothing was read from the bank\)/],
		['a row without its account', day, [{ account: '0823100001', amount: '1' }], /^Expected payment in item 1: the column "account_number" \(Account Field\) is empty or missing/],
		['no period', {}, [{ account_number: '0823100001', amount: '1' }], /^Start Date is required/],
		['start after end', { startDate: '2026-01-02', endDate: '2026-01-01' }, [{}], /^Start Date must not be after End Date 2026-01-01/],
		['a tolerance with a comma', { ...day, options: { tolerance: '0,5' } }, [{}], /^Tolerance \(NGN\) uses a comma that is not a thousands separator/],
		['JSON that does not parse', { ...day, expectedFrom: 'json', expectedJson: '[{"account_number": "0823100001",' }, [{}], /^Expected Payments \(JSON\) is not valid JSON \(.+\)\. The reconciliation was not made \(nothing was read from the bank\): give an array of objects/],
		['JSON that is not an array', { ...day, expectedFrom: 'json', expectedJson: '{"account_number": "0823100001", "amount": "1"}' }, [{}], /^Expected Payments \(JSON\) is not an array\./],
		['a JSON entry that is not an object', { ...day, expectedFrom: 'json', expectedJson: '[{"account_number": "0823100001", "amount": "1"}, "0823100002"]' }, [{}], /^Expected Payments \(JSON\) holds "0823100002" as entry 2, not an object/],
		['a JSON entry without its amount', { ...day, expectedFrom: 'json', expectedJson: '[{"account_number": "0823100001", "amount": "1"}, {"account_number": "0823100002"}]' }, [{}], /^Expected payment in entry 2 of Expected Payments \(JSON\): the column "amount" \(Amount Field\)/],
	])('%s', async (_name, parameters, items, message) => {
		await expectRejectedWithoutRequest(fx, api(parameters, { items }), message);
	});
});
