import type { IDataObject } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { inListShape, LIST_SHAPES } from './harness/listShapes';
import { asApiClient, asDashboardUser, rl } from './harness/nodeParameters';
import { collect, dayOf } from './harness/reconciliation';
import { runNode, type NodeRun } from './harness/runNode';
import { runAsTool } from './harness/toolRun';

const fx = useBankFixture({ transactions: 3000 });
afterEach(() => fx.bank.configure({ pageCap: null, pageOffsets: 'served' }));

const api = asApiClient({ resource: 'reconciliation', operation: 'getStatement' });
const web = asDashboardUser({ resource: 'reconciliation', operation: 'getStatement' });
const START = '2025-10-01';
const END = '2025-11-30';
const ACCOUNT = '0823000001';

type Tx = (typeof fx.bank.bank.transactions)[number];
/** The period's transactions from the ledger, newest first as the bank lists them (ties: later id first). */
const ledger = (account?: string) =>
	fx.bank.bank.transactions
		.filter((t) => t.businessId === fx.bank.bank.main.id && (!account || t.accountNumber === account))
		.filter((t) => dayOf(new Date(t.createdAtMs).toISOString()) >= START && dayOf(new Date(t.createdAtMs).toISOString()) <= END)
		.reverse();
const kobo = (amount: unknown) => BigInt(String(amount).replace('.', ''));
const total = (list: Tx[], type: 'credit' | 'debit') => list.filter((t) => t.status === 'success' && t.type === type).reduce((sum, t) => sum + t.amount, 0n);
const amount = (value: bigint) => `${value / 100n}.${String(value % 100n).padStart(2, '0')}`;

/** The CSV file of a run, decoded, as lines. */
function csvOf(run: NodeRun, property = 'data'): string[] {
	const binary = run.items[0].binary![property];
	expect(binary).toMatchObject({ mimeType: 'text/csv' });
	return Buffer.from(binary.data, 'base64').toString('utf8').split('\r\n');
}

describe.each(LIST_SHAPES)('Get Statement (%s list shape)', (shape) => {
	inListShape(fx, shape);
	beforeAll(() => fx.bank.reset());

	test.each([
		['pages as asked', null, 'served'],
		['a bank capping its pages at 30', 30, 'served'],
		['a bank capping its pages at 30 and numbering them by the size asked', 30, 'asked'],
	] as const)('as items: every transaction of the period, in the bank\'s order, nothing else: %s', async (_name, pageCap, pageOffsets) => {
		fx.bank.configure({ pageCap, pageOffsets });
		const expected = ledger();
		expect(expected.length).toBeGreaterThan(1000);
		const run = await runNode(fx.credentials, api({ startDate: START, endDate: END, output: 'items' }));
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.reference_number)).toEqual(expected.map((t) => t.reference));
		const one = await runNode(fx.credentials, web({ accountNumber: rl(ACCOUNT), startDate: START, endDate: END, output: 'items' }));
		expect(one.json.map((json) => json.reference_number)).toEqual(ledger(ACCOUNT).map((t) => t.reference));
	});

	test.each([
		['API client', api],
		['dashboard user', web],
	])('as a CSV file: a header, one line per transaction in the bank\'s order, totals in and out (%s)', async (_who, as) => {
		const expected = ledger(ACCOUNT);
		const run = await runNode(fx.credentials, as({ accountNumber: rl(ACCOUNT, 'id'), startDate: START, endDate: END, output: 'csv', options: { binaryPropertyName: 'statement' } }));
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			{
				account_number: ACCOUNT,
				start_date: START,
				end_date: END,
				count: expected.length,
				total_in: amount(total(expected, 'credit')),
				total_out: amount(total(expected, 'debit')),
				file_name: `statement-${ACCOUNT}-${START}-${END}.csv`,
			},
		]);
		const lines = csvOf(run, 'statement');
		expect(lines.at(-1)).toBe('');
		expect(lines).toHaveLength(expected.length + 2);
		const header = lines[0].split(',');
		expect(header).toEqual(expect.arrayContaining(['reference_number', 'account_number', 'amount', 'transaction_type', 'status', 'created_at']));
		const column = (name: string) => header.indexOf(name);
		const rows = lines.slice(1, -1).map((line) => line.split(','));
		expect(rows.map((row) => row[column('reference_number')])).toEqual(expected.map((t) => t.reference));
		expect(rows.map((row) => row[column('amount')])).toEqual(expected.map((t) => amount(t.amount)));
		const sum = (type: string) => rows.filter((row) => row[column('transaction_type')] === type && row[column('status')] === 'success').reduce((s, row) => s + kobo(row[column('amount')]), 0n);
		expect(amount(sum('credit'))).toBe(run.json[0].total_in);
		expect(amount(sum('debit'))).toBe(run.json[0].total_out);
	});
});

describe('Get Statement: cells and failures', () => {
	beforeEach(() => fx.bank.reset());

	test('a cell a spreadsheet would run as a formula gets a leading quote; commas and quotes are quoted', async () => {
		const made = await collect(fx, { account_number: '0823100001', amount: '10', reference: 'STMT-1' });
		const day = dayOf(made.created_at);
		await fetch(`${fx.bank.url}/__sandbox/collections`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ account_number: '0823100001', amount: '20', reference: 'STMT-2', narration: '=HYPERLINK("http://x","pay, now")' }),
		});
		const run = await runNode(fx.credentials, api({ accountNumber: rl('0823100001', 'id'), startDate: day, endDate: day, output: 'csv', options: { fileName: 'day.csv' } }));
		expect(run.json[0]).toMatchObject({ count: 2, total_in: '30.00', total_out: '0.00', file_name: 'day.csv' });
		const lines = csvOf(run);
		expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"",""pay, now"")"`);
		expect(lines[2]).toContain('STMT-1');
	});

	test('a day without transactions is a file with its header and zero totals', async () => {
		const run = await runNode(fx.credentials, api({ accountNumber: rl('0823100006', 'id'), startDate: '2024-01-01', endDate: '2024-01-01' }));
		expect(run.json[0]).toMatchObject({ count: 0, total_in: '0.00', total_out: '0.00' });
		expect(csvOf(run)).toEqual(['reference_number,account_number,amount,transaction_type,status,created_at', '']);
	});

	test('a bank that refuses pages of 1,000 as invalid input (99) is read in pages of 100: the whole statement', async () => {
		fx.bank.addFault({ match: 'fetch_transactions', errorCode: '99', times: 1 });
		const since = fx.bank.requests().length;
		const run = await runNode(fx.credentials, api({ startDate: START, endDate: END, output: 'items' }));
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.reference_number)).toEqual(ledger().map((t) => t.reference));
		const lists = fx.bank.requests().slice(since).filter((entry) => entry.path.endsWith('/fetch_transactions'));
		expect(lists[0].response_code).toBe('99');
		expect(lists.length).toBe(1 + Math.floor(ledger().length / 100) + 1);
	});

	test.each(['csv', 'items'])('a page that fails mid-statement fails the run: the statement was not produced (%s)', async (output) => {
		const retryBase = REQUEST_LIMITS.retryBaseMs;
		REQUEST_LIMITS.retryBaseMs = 10;
		// Pages of 100 (the period holds more than 1,000 transactions): a third page exists to fail.
		fx.bank.configure({ pageCap: 100 });
		let served = 0;
		const off = fx.bank.onListServed(() => {
			if (++served === 2) fx.bank.addFault({ match: 'fetch_transactions', drop: 'midAnswer', times: 100 });
		});
		try {
			const run = await runNode(fx.credentials, api({ startDate: START, endDate: END, output }));
			expect(run.error?.message).toMatch(/^The statement is incomplete and was not produced: page 3 of the transactions could not be read\. Nothing partial was returned/);
			expect(run.items).toEqual([]);
		} finally {
			off();
			REQUEST_LIMITS.retryBaseMs = retryBase;
		}
	});

	test.each<[string, IDataObject, RegExp]>([
		['no dates', { output: 'csv' }, /^Start Date is required/],
		['an output of another name', { startDate: START, endDate: END, output: '={{ "pdf" }}' }, /^Output must be one of csv, items/],
		['a file name with a line break', { startDate: START, endDate: END, output: 'csv', options: { fileName: '={{ "a\\nb.csv" }}' } }, /^File Name must not contain control characters/],
	])('invalid input sends nothing: %s', async (_name, parameters, message) => {
		await expectRejectedWithoutRequest(fx, api(parameters), message);
	});
});

describe('Reconciliation as an AI tool', () => {
	beforeEach(() => fx.bank.reset());
	const day = () => dayOf(new Date(ledger(ACCOUNT)[0].createdAtMs).toISOString());

	test.each(['agent', 'mcp'] as const)('Get Statement takes its account and dates from the caller (%s)', async (way) => {
		const run = await runAsTool(fx.credentials, {
			way,
			parameters: {
				authentication: 'apiClient',
				resource: 'reconciliation',
				operation: 'getStatement',
				accountNumber: rl("={{ $fromAI('account_number', 'The account', 'string') }}", 'id'),
				startDate: "={{ $fromAI('start_date', 'First day, YYYY-MM-DD', 'string') }}",
				endDate: "={{ $fromAI('end_date', 'Last day, YYYY-MM-DD', 'string') }}",
				output: 'items',
			},
			credentials: API,
			input: { account_number: ACCOUNT, start_date: day(), end_date: day() },
		});
		const expected = ledger(ACCOUNT).filter((t) => dayOf(new Date(t.createdAtMs).toISOString()) === day());
		const answer = way === 'agent' ? [run.answers[0].answer] : (run.answers[0].answer as IDataObject[]);
		expect((answer as IDataObject[]).map((json) => json.reference_number)).toEqual(way === 'agent' ? [expected[0].reference] : expected.map((t) => t.reference));
	});

	test('Check Settlements answers an MCP client', async () => {
		const run = await runAsTool(fx.credentials, {
			way: 'mcp',
			dashboard: true,
			parameters: { authentication: 'dashboardUser', resource: 'reconciliation', operation: 'checkSettlements', date: "={{ $fromAI('date', 'The day, YYYY-MM-DD', 'string') }}" },
			credentials: DASHBOARD,
			input: { date: day() },
		});
		const answer = run.answers[0].answer as IDataObject[];
		expect(answer.at(-1)).toMatchObject({ settlement_outcome: 'totals', account_number: 'all', count_not_settled_yet: 0 });
	});

	test.each(['agent', 'mcp'] as const)('Match Expected Payments takes the expected payments from the caller as JSON (%s)', async (way) => {
		const paid = await collect(fx, { account_number: ACCOUNT, amount: '25.50' });
		const today = dayOf(String(paid.created_at));
		const run = await runAsTool(fx.credentials, {
			way,
			parameters: {
				authentication: 'apiClient',
				resource: 'reconciliation',
				operation: 'matchPayments',
				matchBy: 'reference',
				expectedFrom: 'json',
				expectedJson: "={{ $fromAI('expected_payments', 'The expected payments: [{reference, amount}]', 'json') }}",
				startDate: "={{ $fromAI('start_date', 'First day, YYYY-MM-DD', 'string') }}",
				endDate: "={{ $fromAI('end_date', 'Last day, YYYY-MM-DD', 'string') }}",
				options: { includeUnexpected: false },
			},
			credentials: API,
			input: {
				expected_payments: [
					{ reference: paid.reference_number, amount: '25.50', invoice: 'INV-1' },
					{ reference: 'NEVER-PAID', amount: '10.00', invoice: 'INV-2' },
				],
				start_date: today,
				end_date: today,
			},
		});
		// The agent stand-in hands on the first item the tool returned; the MCP client gets them all.
		const answer = (way === 'agent' ? [run.answers[0].answer] : run.answers[0].answer) as IDataObject[];
		const rows = [
			['INV-1', 'matched'],
			['INV-2', 'not paid yet'],
		];
		expect(answer.map((row) => [row.invoice, row.reconciliation_outcome])).toEqual(way === 'agent' ? rows.slice(0, 1) : rows);
	});
});
