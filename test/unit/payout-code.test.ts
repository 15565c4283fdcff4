/**
 * The payout examples' Code nodes (scripts/n8n/payoutCode.ts), run as n8n's Code node runs them: a function body
 * given `$input` and `$`. The errors fed to Describe Outcome are the package's own, shaped as its router puts them
 * on an error output ({ error, message: "Outcome: <word>. <description>" }), so a change of their wording that
 * the examples would misread fails here.
 */
import type { IExecuteFunctions, INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { runInNewContext } from 'node:vm';

import { outcomeOf, withDefaultOutcome } from '../../nodes/common/actions/writeOutcome';
import { bankApiError, signInApiError, transportApiError } from '../../nodes/common/transport/errors';
import { SignInError } from '../../nodes/common/transport/tokenExchange';
import { invalidInput } from '../../nodes/common/validation';
import type { PayoutSource } from '../../scripts/n8n/payoutCode';
import { csvReaderCode } from '../../scripts/n8n/csvReader';
import { checkRowsCode, csvSafe, describeOutcomeCode, PAYOUT_SOURCES } from '../../scripts/n8n/payoutCode';
import { payoutsCsv } from '../../scripts/n8n/payoutRows';

type Json = Record<string, unknown>;
interface Item {
	json: Json;
	pairedItem?: { item: number };
}

const FILE = PAYOUT_SOURCES['payouts-from-file.json'];
const TABLE = PAYOUT_SOURCES['payouts-from-table.json'];
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const run = <T>(code: string, globals: object): T => plain(runInNewContext(`(function () {\n${code}\n})()`, globals) as T);

const checkItems = (source: PayoutSource, items: Json[]) => run<Item[]>(checkRowsCode(source), { $input: { all: () => items.map((json) => ({ json })) } });
/** A file's rows reach Check Rows as Read CSV Lines gives them (./csv-reader.test.ts): numbered from line 2, none with a problem. */
const checkRows = (source: PayoutSource, rows: Json[]) =>
	checkItems(source, source === FILE ? rows.map((row, i) => ({ line: i + 2, problem: '', row })) : rows);
/** A file read by the example's own Read CSV Lines, then checked. */
const checkFile = (text: string) => checkItems(FILE, run<Item[]>(csvReaderCode(), { $input: { all: () => [{ json: { data: text } }] } }).map((item) => item.json));

/** Describe Outcome given what reached it (`from`: the Check Rows item n8n's paired items lead back to). */
function describeOutcomes(source: PayoutSource, checked: Item[], arrived: Array<{ json: Json; from: number }>): Json[] {
	const $ = (name: string) => {
		if (name !== 'Check Rows') throw new Error(`the code reads only Check Rows, not ${name}`);
		return { all: () => checked, itemMatching: (i: number) => checked[arrived[i].from] };
	};
	return run<Item[]>(describeOutcomeCode(source), { $input: { all: () => arrived.map(({ json }) => ({ json })) }, $ }).map((item) => item.json);
}

const node = { id: 'n', name: 'Send Payout', type: 'n8n-nodes-baas.baas', typeVersion: 2, position: [0, 0], parameters: {} } as INode;
/** An item of Send Payout's error output, as the package's router makes it (then merged into the input item by n8n). */
function errorOutput(error: NodeApiError | NodeOperationError): Json {
	const failed = withDefaultOutcome(error);
	return { error: failed.message, message: `Outcome: ${outcomeOf(failed)}. ${failed.description ?? ''}`.trim() };
}
const context = { getNode: () => node } as unknown as IExecuteFunctions;
/** The error BaaS Dashboard's name check stops an item with (nodes/common/actions/transfer/nameEnquiry.operation.ts). */
const nameMismatch = (actual: string, expected: string, itemIndex: number) =>
	new NodeOperationError(node, `Name mismatch for account 0123456789: the bank has "${actual}", expected "${expected}" (item ${itemIndex + 1})`, {
		itemIndex,
		description: 'The item stopped before any money moved. Check the beneficiary details or the expected name.',
	});

const row = (reference: string, more: Json = {}): Json => ({
	reference,
	account_number: '0123456789',
	bank_code: '000014',
	account_name: 'Ada Obi',
	amount: '100.00',
	narration: '',
	...more,
});

describe('csvSafe: a cell a spreadsheet would run is made text, anything else left as it is', () => {
	test.each([
		['=HYPERLINK("http://x.invalid","Open receipt")', `'=HYPERLINK("http://x.invalid","Open receipt")`],
		['+SUM(A1:A2)', "'+SUM(A1:A2)"],
		['-2+3', "'-2+3"],
		['@SUM(1+1)', "'@SUM(1+1)"],
		['\t=1+2', "'\t=1+2"],
		['\r=1+2', "'\r=1+2"],
		['\0x', "'\0x"],
		['  =1+2', "'  =1+2"],
		['-', "'-"],
		['-5.00 refund', "'-5.00 refund"],
		['+234 803 123 4567', "'+234 803 123 4567"],
	])('%j → %j', (cell, safe) => expect(csvSafe(cell)).toBe(safe));

	test.each(['-5.00', '+234', '1500.00', '-0.5', ' -12 ', 'Ada Obi', 'a=b', 'x-1', '', 'PAYOUT-001'])('%j stays as it is', (cell) =>
		expect(csvSafe(cell)).toBe(cell),
	);

	test('values that are not text become text; none is lost', () => {
		expect([csvSafe(undefined), csvSafe(null), csvSafe(-5), csvSafe(12.5)]).toEqual(['', '', '-5', '12.5']);
	});

	test('the sample payouts file is written by the same rule: a formula-looking value is refused', () => {
		const row = { reference: 'A', account_number: '0123456789', bank_code: '000014', account_name: 'Ada Obi', amount: '100.00', narration: 'x' };
		expect(() => payoutsCsv([{ ...row, narration: '@SUM(1+1)' }])).toThrow(/"@SUM\(1\+1\)" is one/);
		expect(payoutsCsv([{ ...row, amount: '-5.00' }])).toContain(',-5.00,');
	});
});

describe('Check Rows', () => {
	test('every line of a file in its order, numbered as in the file; an empty value or a reference used above is not sent', () => {
		const checked = checkRows(FILE, [row('A'), row('B', { amount: '' }), row('A', { amount: '5.00' }), row('', {}), row('C')]);
		expect(checked.map(({ json }) => [json.at, json.problem])).toEqual([
			['line 2', ''],
			['line 3', 'amount is empty on line 3: fill it in'],
			['line 4', 'reference A is already used by line 2: give line 4 a reference of its own'],
			['line 5', 'reference is empty on line 5: fill it in'],
			['line 6', ''],
		]);
		// n8n's paired items lead each back to its line, and the line is kept whole.
		expect(checked.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(checked[1].json.row).toEqual(row('B', { amount: '' }));
	});

	test('a table pays only rows not done, by id; the first row with a reference keeps it, whatever its status', () => {
		const checked = checkRows(TABLE, [
			row('R', { id: 7, status: 'pending' }),
			row('P', { id: 3, status: 'successful' }),
			row('P', { id: 9, status: '' }),
			row('Q', { id: 4, status: 'not sent' }),
			row('R', { id: 12, status: null }),
			row('S', { id: 5, status: 'unknown' }),
		]);
		expect(checked.map(({ json }) => [json.at, json.problem])).toEqual([
			['row 5', ''],
			['row 7', ''],
			['row 9', 'reference P is already used by row 3: give row 9 a reference of its own'],
			['row 12', 'reference R is already used by row 7: give row 12 a reference of its own'],
		]);
	});

	test('a sheet\'s rows read without their row number are not sent, each saying where the number comes from', () => {
		const checked = checkRows(PAYOUT_SOURCES['payouts-from-sheet.json'], [row('A'), row('B'), row('C', { row_number: 4 })]);
		const missing = 'this row has no number (the row_number the Google Sheets node reads with each row): read the rows with that node, unchanged';
		const problems = new Map(checked.map(({ json }) => [(json.row as Json).reference, json.problem]));
		expect(problems).toEqual(new Map([['A', missing], ['B', missing], ['C', '']]));
	});

	test('a file without a needed column says which', () => {
		const { narration: _n, amount: _a, ...short } = row('A');
		expect(checkRows(FILE, [short])[0].json.problem).toBe('there is no column amount (needed: reference, account_number, bank_code, account_name, amount; narration is optional)');
	});
});

describe('Check Rows after Read CSV Lines: a file as people have it', () => {
	// A spreadsheet in a ";" locale saved it with a byte-order mark; line 4 has a value too many, line 5 a narration
	// with a line break, line 6 is a spreadsheet's empty row.
	const text = [
		'\uFEFFreference;account_number;bank_code;account_name;amount;narration',
		'A;0123456789;000014;Ada Obi;100.00;March',
		'B;0123456789;000014;Ada Obi;5.00;',
		'C;0123456789;000014;Obi; Ada;7.00;x',
		'D;0123456789;000014;Ada Obi;9.00;"Rent\r\nflat 2"',
		';;;;;',
		'E;0123456789;000014;Ada Obi;11.00',
	].join('\r\n');
	const checked = checkFile(text);

	test('every line is answered by its line; only the ragged ones are not to send, each saying why', () => {
		expect(checked.map(({ json }) => [json.at, json.problem])).toEqual([
			['line 2', ''],
			['line 3', ''],
			['line 4', 'line 4 has 7 values where the header has 6 columns: a value holding a semicolon needs double quotes around it, or the line has a value too many ("x")'],
			['line 5', ''],
			['line 7', expect.stringMatching(/^line 7 has 5 values where the header has 6 columns/)],
		]);
		expect((checked[3].json.row as Json).narration).toBe('Rent\r\nflat 2');
	});

	test('a ragged line is answered "not sent" in the results, with the values it had', () => {
		const results = describeOutcomes(FILE, checked, [{ json: checked[2].json, from: 2 }]);
		expect(results[2]).toMatchObject({ reference: 'C', account_name: 'Obi', status: 'not sent' });
		expect(results[2].message).toMatch(/^not sent: line 4 has 7 values where the header has 6 columns/);
	});

	test('a cell a spreadsheet would run comes back neutralised; a negative amount stays a number', () => {
		const lines = checkFile('reference,amount,receipt\nA,-5.00,"=HYPERLINK(""http://x.invalid"",""Open"")"\n');
		expect(lines[0].json.row).toEqual({ reference: 'A', amount: '-5.00', receipt: '=HYPERLINK("http://x.invalid","Open")' });
		const [result] = describeOutcomes(FILE, lines, [{ json: lines[0].json, from: 0 }]);
		expect(result).toMatchObject({ amount: '-5.00', receipt: `'=HYPERLINK("http://x.invalid","Open")`, status: 'not sent' });
	});
});

describe('Describe Outcome', () => {
	const checked = checkRows(FILE, [row('A'), row('B', { amount: '' }), row('C'), row('D'), row('E'), row('F'), row('G'), row('H'), row('I')]);
	const entry = (i: number) => checked[i].json;
	const results = describeOutcomes(FILE, checked, [
		// The Merge node hands them on by branch: payments, the transfer's errors, the name check's, then rows to fix.
		{ json: { reference_number: 'A', outcome: 'successful', transaction_id: 'TX-A' }, from: 0 },
		{ json: { reference_number: 'I', outcome: 'failed', transaction_id: 'TX-I' }, from: 8 },
		{ json: errorOutput(bankApiError(node, { responseCode: '83', message: 'Beneficiary account 0823000003 is inactive' }, 3)), from: 3 },
		{ json: errorOutput(invalidInput(context, 2, 'Amount', 'must be a positive amount with at most 2 decimals', '-5.00')), from: 4 },
		{ json: errorOutput(signInApiError(node, new SignInError('The bank refused to sign in: Invalid client credentials [41]. Check the client secret.', true, '41', 401))), from: 5 },
		{ json: errorOutput(transportApiError(node, 'socket hang up', 0)), from: 6 },
		// The name check was given the lines ready to send, so line 4 was its item 2 (as nameEnquiry.operation.ts says it).
		{ json: { ...entry(2), ...errorOutput(nameMismatch('Ada Obu', 'Ada Obi', 1)) }, from: 2 },
		{ json: entry(1), from: 1 },
	]);

	test('one result per line, in the file\'s order, each line\'s columns first', () => {
		expect(results.map((r) => r.reference)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
		expect(Object.keys(results[0])).toEqual([...Object.keys(row('A')), 'status', 'message', 'transaction_id', 'updated_at']);
	});

	test('paid and failed: what the bank holds, with its transaction id', () => {
		expect([results[0].status, results[0].message, results[0].transaction_id]).toEqual(['successful', 'paid', 'TX-A']);
		expect([results[8].status, results[8].transaction_id]).toEqual(['failed', 'TX-I']);
	});

	test('"not sent" for whatever never reached the bank: a line to fix, the name check, a value the node refused, a refused sign-in', () => {
		expect([results[1].status, results[1].message]).toEqual(['not sent', 'not sent: amount is empty on line 3: fill it in']);
		// "item 2" (the name check's count) becomes the line of the file.
		expect([results[2].status, results[2].message]).toEqual([
			'not sent',
			'not sent: Name mismatch for account 0123456789: the bank has "Ada Obu", expected "Ada Obi" (line 4). The item stopped before any money moved. Check the beneficiary details or the expected name.',
		]);
		expect(results[4].status).toBe('not sent');
		// The node's "in item 3" (its place in this run) becomes the line of the file.
		expect(results[4].message).toBe(
			'not sent: Amount must be a positive amount with at most 2 decimals (got "-5.00") on line 6. Fix the value of "Amount" for this item; nothing was sent to the bank.',
		);
		expect(results[5].status).toBe('not sent');
		expect(results[5].message).toMatch(/^not sent: The bank refused to sign in: Invalid client credentials \[41\]/);
	});

	test('"not made" only for the bank\'s refusal of the transfer', () => {
		expect(results[3].status).toBe('refused');
		expect(results[3].message).toMatch(/^not made: The bank refused the request \[83\]: Beneficiary account 0823000003 is inactive\. /);
		expect(results.filter((r) => String(r.message).startsWith('not made'))).toHaveLength(1);
	});

	test('a lost answer: outcome unknown, and how to check', () => {
		expect(results[6].status).toBe('unknown');
		expect(results[6].message).toMatch(/^outcome unknown: check with BaaS → Transfer → Get Status, reference G; pay it again only with the same reference/);
	});

	test('a line nothing came back for is unknown, never "not made"', () => {
		expect([results[7].status, results[7].message]).toEqual([
			'unknown',
			'outcome unknown: no result came back for line 9; check with BaaS → Transfer → Get Status, reference H',
		]);
	});

	test('the results of a file are safe to open in a spreadsheet; a table\'s are written as they are', () => {
		const formula = '=HYPERLINK("http://x.invalid","Open receipt")';
		const lines = checkRows(FILE, [row('A', { amount: '-5.00', receipt: formula })]);
		const arrived = [{ json: errorOutput(invalidInput(context, 0, 'Amount', 'must be positive', '-5.00')), from: 0 }];
		expect(describeOutcomes(FILE, lines, arrived)[0]).toMatchObject({ amount: '-5.00', receipt: `'${formula}` });
		const rows = checkRows(TABLE, [row('A', { id: 1, status: '', receipt: formula })]);
		expect(describeOutcomes(TABLE, rows, arrived)[0]).toMatchObject({ id: 1, receipt: formula, status: 'not sent' });
	});
});
