/**
 * The CSV reader of the examples that read a file (scripts/n8n/csvReader.ts): files as people have them, every
 * line answered. `readCsv` is the very text the Code node runs; `csvReaderCode()` is run here as n8n's Code node
 * runs it (a function body given `$input`).
 */
import { runInNewContext } from 'node:vm';

import { csvReaderCode, readCsv } from '../../scripts/n8n/csvReader';

type Json = Record<string, unknown>;
const codeNode = (inputs: Json[]) =>
	JSON.parse(JSON.stringify(runInNewContext(`(function () {\n${csvReaderCode()}\n})()`, { $input: { all: () => inputs.map((json) => ({ json })) } }))) as Array<{
		json: Json;
		pairedItem: { item: number };
	}>;
const rows = (text: string) => readCsv(text).lines.map(({ line, problem, row }) => ({ line, problem, row }));

describe('readCsv: the separators and quoting spreadsheets write', () => {
	test('a byte-order mark, ";" between values, CRLF line ends: read as the header says', () => {
		const read = readCsv('\uFEFFreference;amount;narration\r\nA;1500.00;March\r\nB;250.50;"Bonus; paid late"\r\n');
		expect([read.separator, read.columns]).toEqual([';', ['reference', 'amount', 'narration']]);
		expect(read.lines).toEqual([
			{ line: 2, problem: '', row: { reference: 'A', amount: '1500.00', narration: 'March' } },
			{ line: 3, problem: '', row: { reference: 'B', amount: '250.50', narration: 'Bonus; paid late' } },
		]);
	});

	test('commas, tabs, a first line "sep=;" (Excel\'s hint), and lines ending in \\n or \\r alone', () => {
		expect(rows('a,b\n1,2')).toEqual([{ line: 2, problem: '', row: { a: '1', b: '2' } }]);
		expect(rows('a\tb\r1\t2\r')).toEqual([{ line: 2, problem: '', row: { a: '1', b: '2' } }]);
		expect(rows('sep=;\r\na;b\r\n1,5;2\r\n')).toEqual([{ line: 3, problem: '', row: { a: '1,5', b: '2' } }]);
	});

	test('the separator is the one the header uses most of outside quotes', () => {
		expect(readCsv('"name, full";amount;note\n"Obi, Ada";5;x').separator).toBe(';');
		expect(readCsv('"a;b;c",d\n1,2').separator).toBe(',');
		expect(readCsv('reference\nA').lines).toEqual([{ line: 2, problem: '', row: { reference: 'A' } }]);
	});

	test('quoted values keep separators, doubled quotes and line breaks; the line after one is numbered as a spreadsheet shows it', () => {
		const text = 'reference,narration,amount\r\nA,"Rent, March ""flat 2""\r\nsecond line",10.00\r\nB,plain,20.00\r\n';
		expect(rows(text)).toEqual([
			{ line: 2, problem: '', row: { reference: 'A', narration: 'Rent, March "flat 2"\r\nsecond line', amount: '10.00' } },
			{ line: 3, problem: '', row: { reference: 'B', narration: 'plain', amount: '20.00' } },
		]);
	});

	test('a quote inside an unquoted value is a character like any other; spaces before an opening quote are dropped', () => {
		expect(rows('pipe,b\n5" pipe,x\n  "q, r",y')).toEqual([
			{ line: 2, problem: '', row: { pipe: '5" pipe', b: 'x' } },
			{ line: 3, problem: '', row: { pipe: 'q, r', b: 'y' } },
		]);
	});
});

describe('readCsv: every line answered, the others read on', () => {
	const header = 'reference,account_number,bank_code,account_name,amount,narration';

	test('a value too many (the "Invalid Record Length" n8n fails the whole file on) is that line\'s problem, named with its line', () => {
		const text = [header, 'A,0123456789,000014,Ada Obi,100.00,x', 'B,0123456789,000014,Obi, Ada,5.00,y', 'C,0123456789,000014,Ada Obi,7.00,z'].join('\n');
		const [a, b, c] = rows(text);
		expect([a.problem, c.problem]).toEqual(['', '']);
		expect(b).toEqual({
			line: 3,
			problem: 'line 3 has 7 values where the header has 6 columns: a value holding a comma needs double quotes around it, or the line has a value too many ("y")',
			row: { reference: 'B', account_number: '0123456789', bank_code: '000014', account_name: 'Obi', amount: ' Ada', narration: '5.00' },
		});
	});

	test('a value too few is that line\'s problem: nothing fills the gap by guessing', () => {
		const [line] = rows(`${header}\nA,0123456789,000014,100.00`);
		expect(line.problem).toBe(
			'line 2 has 4 values where the header has 6 columns (reference, account_number, bank_code, account_name, amount, narration): give it every column, even an empty one, so no value sits under another\'s name',
		);
		expect(line.row).toMatchObject({ account_name: '100.00', amount: '', narration: '' });
	});

	test('empty lines and lines of separators only (a spreadsheet\'s empty row) are skipped but counted; leading ones too', () => {
		expect(rows('\r\n  \r\na;b\r\n1;2\r\n;\r\n\r\n3;4\r\n;;  ;\r\n')).toEqual([
			{ line: 4, problem: '', row: { a: '1', b: '2' } },
			{ line: 7, problem: '', row: { a: '3', b: '4' } },
		]);
	});

	test('a quote never closed spoils only its own line, read with the quote as text', () => {
		expect(rows('a,b\n"1,2\n3,4\n')).toEqual([
			{ line: 2, problem: 'line 2 has a double quote (") that opens a value and is never closed: close it, and write a quote inside a quoted value as ""', row: { a: '"1', b: '2' } },
			{ line: 3, problem: '', row: { a: '3', b: '4' } },
		]);
	});

	test('a header naming a column twice, or text that was not UTF-8, is said on each line', () => {
		expect(rows('amount,amount\n1,2')[0]).toEqual({
			line: 2,
			problem: "the header names amount more than once: name each column once, so line 2's values are not read from the wrong one",
			row: { amount: '1' },
		});
		expect(rows('name,b\nAd\uFFFDze,2\nAda,3').map((l) => l.problem)).toEqual([
			'line 2 holds characters that are not UTF-8 (shown as \uFFFD): save the file as "CSV UTF-8" and upload it again',
			'',
		]);
	});

	test('header names are trimmed, an empty one named by its place; values are kept as written', () => {
		expect(readCsv(' reference , ,amount\nA, x ,=1+2').lines[0].row).toEqual({ reference: 'A', column_2: ' x ', amount: '=1+2' });
	});
});

describe('the Read CSV Lines Code node', () => {
	test('one item per line, { line, problem, row }, each paired to its file', () => {
		const out = codeNode([{ data: 'a;b\n1;2\n3' }, { data: 'a\nz' }]);
		expect(out.map((item) => [item.json.line, item.json.problem === '', item.json.row, item.pairedItem.item])).toEqual([
			[2, true, { a: '1', b: '2' }, 0],
			[3, false, { a: '3', b: '' }, 0],
			[2, true, { a: 'z' }, 1],
		]);
	});

	test('a file with nothing to read still gives one line that says why, so the workflow reaches its end', () => {
		expect(codeNode([{ data: '' }, { data: '\uFEFF\r\n' }, { data: 'a,b\r\n\r\n' }, {}]).map((item) => [item.json.line, item.json.problem])).toEqual([
			[1, 'the file is empty: its first line names the columns, and each line after it is one row'],
			[1, 'the file is empty: its first line names the columns, and each line after it is one row'],
			[2, 'the file has its header line (a, b) and no line after it'],
			[1, 'no text in the field "data": read the file with Extract From File → Extract From Text File'],
		]);
	});

	test('reads a file of 50,000 lines with quoted values, every line numbered', () => {
		const line = 'REF,0123456789,000014,"Obi, Ada",100.00,"Salary\nMarch"';
		const text = ['reference,account_number,bank_code,account_name,amount,narration', ...Array.from({ length: 50_000 }, () => line)].join('\r\n');
		const read = readCsv(text);
		expect(read.lines).toHaveLength(50_000);
		expect(read.lines[49_999]).toMatchObject({ line: 50_001, problem: '' });
	});
});
