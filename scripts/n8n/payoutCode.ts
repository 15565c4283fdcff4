/**
 * The JavaScript of the payout examples' two Code nodes, Check Rows and Describe Outcome: one text for the data
 * table, the CSV file and the Google Sheet, so the three cannot drift apart. Only the first lines of each differ
 * (what a row is called and numbered by, which rows are still to pay, whether the results become a CSV). The file
 * example also holds the CSV reader (./csvReader.ts) and its last page's message (./payoutPage.ts).
 * test/unit/examples.test.ts checks that every payout example holds exactly this text and runs it;
 * `npx tsx scripts/n8n/payoutCode.ts` writes it into the examples after a change here.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';

import { csvReaderCode } from './csvReader';
import { EXAMPLES_DIR, readExample } from './examples';
import { PAGE_MESSAGE } from './payoutPage';

export interface PayoutSource {
	/** What the user calls one payout: a line of the file, a row of the table or sheet. */
	noun: 'line' | 'row';
	/**
	 * JavaScript giving `{ row, number, problem }` from `json` (an item read): the payout's columns, its number, and
	 * what is already known to be wrong with it ('' when nothing is).
	 */
	entryOf: string;
	/** Why it is numbered so, said in the code. */
	numbered: string;
	/** Where a row's number comes from, for a row without one. */
	numberedBy: string;
	/** Pay only rows whose status is empty, pending or unknown (a table or sheet keeps outcomes between runs). */
	dueOnly: boolean;
	/** The results become a CSV file. */
	csv: boolean;
}

export const PAYOUT_SOURCES: Record<string, PayoutSource> = {
	'payouts-from-file.json': {
		noun: 'line',
		entryOf: "({ row: json.row ?? {}, number: json.line, problem: json.problem ?? '' })",
		numbered: 'the lines of the uploaded file as Read CSV Lines gives them (the header is line 1); every line is paid',
		numberedBy: 'the line Read CSV Lines gives with each row',
		dueOnly: false,
		csv: true,
	},
	'payouts-from-table.json': {
		noun: 'row',
		entryOf: "({ row: json, number: Number(json.id), problem: '' })",
		numbered: 'the rows of the data table by their id; only those not done yet are paid',
		numberedBy: 'the id the Data Table node reads with each row',
		dueOnly: true,
		csv: false,
	},
	'payouts-from-sheet.json': {
		noun: 'row',
		entryOf: "({ row: json, number: Number(json.row_number), problem: '' })",
		numbered: 'the rows of the sheet by their row number; only those not done yet are paid',
		numberedBy: 'the row_number the Google Sheets node reads with each row',
		dueOnly: true,
		csv: false,
	},
};

/**
 * Makes a cell safe to open in a spreadsheet (OWASP, CSV injection). A cell that starts with = + - @ (after any
 * spaces), a tab, a carriage return or a NUL is one a spreadsheet may run as a formula: it gets a leading ' and
 * is shown as text. A plain number (digits, one optional sign and decimal point, such as -5.00 or +234) is left
 * as it is: a spreadsheet reads it as that number, and a ' would turn an amount into text.
 */
export const CSV_SAFE_JS = `const csvSafe = (value) => {
  const text = value === undefined || value === null ? '' : String(value);
  const formula = /^[\\t\\r\\0]|^\\s*[=+\\-@]/.test(text) && !/^\\s*[+-]?\\d+(\\.\\d+)?\\s*$/.test(text);
  return formula ? \`'\${text}\` : text;
};`;

/** The same rule as a function, for what writes CSV outside n8n (the sample file); its tests run this one too. */
export const csvSafe = runInNewContext(`${CSV_SAFE_JS}; csvSafe`) as (value: unknown) => string;

const SHARED = '// The same code in the three payout examples (scripts/n8n/payoutCode.ts writes it); only these lines differ:';

export function checkRowsCode(source: PayoutSource): string {
	return `// Which rows to pay, and which cannot be sent as they are: a required value missing, or a reference an
// earlier row already uses (the bank pays a reference once, so the first row with it keeps it).
${SHARED}
const NOUN = '${source.noun}'; // ${source.numbered}
const entryOf = (json) => ${source.entryOf};
const NUMBERED_BY = '${source.numberedBy}';
const DUE_ONLY = ${source.dueOnly};

const REQUIRED = ['reference', 'account_number', 'bank_code', 'account_name', 'amount'];
const text = (value) => (value === undefined || value === null ? '' : String(value).trim());
const rows = $input.all().map((item, index) => ({ ...entryOf(item.json), index }));
rows.sort((a, b) => a.number - b.number);
const holder = new Map();
for (const { row, number } of rows) {
  if (Number.isFinite(number) && text(row.reference) !== '' && !holder.has(text(row.reference))) holder.set(text(row.reference), number);
}
const problemOf = ({ row, number, problem }) => {
  // Outcomes are written back by number: a row without one could overwrite another's.
  if (!Number.isFinite(number)) return \`this \${NOUN} has no number (\${NUMBERED_BY}): read the \${NOUN}s with that node, unchanged\`;
  if (problem) return problem;
  const at = \`\${NOUN} \${number}\`;
  const absent = REQUIRED.filter((column) => !(column in row));
  if (absent.length > 0) return \`there is no column \${absent.join(', ')} (needed: \${REQUIRED.join(', ')}; narration is optional)\`;
  const empty = REQUIRED.find((column) => text(row[column]) === '');
  if (empty) return \`\${empty} is empty on \${at}: fill it in\`;
  const first = holder.get(text(row.reference));
  if (first !== number) return \`reference \${text(row.reference)} is already used by \${NOUN} \${first}: give \${at} a reference of its own\`;
  return '';
};
const due = (row) => !DUE_ONLY || ['', 'pending', 'unknown'].includes(text(row.status));
return rows
  .filter(({ row }) => due(row))
  .map((entry) => ({
    json: { number: entry.number, at: \`\${NOUN} \${entry.number}\`, problem: problemOf(entry), row: entry.row },
    pairedItem: { item: entry.index },
  }));
`;
}

export function describeOutcomeCode(source: PayoutSource): string {
	return `// One result per row of Check Rows, in its order, whichever way it went. successful, pending, failed: the
// bank holds the transfer. "not sent": it never reached the bank (a row to fix, a name that differs, a value
// the node refused). "not made": the bank refused it. "outcome unknown": the answer was lost and nothing
// settled it, so only the bank can say.
${SHARED}
const FOR_CSV = ${source.csv}; // the results become a CSV file, so no cell may be a formula

${CSV_SAFE_JS}
const csvSafeRow = (row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [csvSafe(key), csvSafe(value)]));
// Only the bank's answer refusing the transfer (or its reference) proves it was not made.
const BANK_REFUSED = /^The bank refused the request \\[|was not made$/;
const sentence = (part) => (/[.!?]$/.test(part) ? part : \`\${part}.\`);

const outcomeOf = (json, { row, at }) => {
  const reference = String(row.reference ?? '').trim();
  const check = \`check with BaaS → Transfer → Get Status, reference \${reference}; pay it again only with the same reference (the bank never pays a reference twice)\`;
  // Check Rows found it cannot be sent as it is.
  if (json.error === undefined && json.problem) return { status: 'not sent', message: \`not sent: \${json.problem}\` };
  if (json.error === undefined) {
    // Send Payout's main output: the bank holds the transfer.
    const message = {
      successful: 'paid',
      pending: \`accepted, not final yet: \${check}\`,
      failed: 'the bank accepted it and it failed (nothing debited, or the debit reversed): fix the beneficiary details, then pay with a new reference',
    }[json.outcome];
    return message ? { status: json.outcome, message, transaction_id: json.transaction_id } : { status: 'unknown', message: \`outcome unknown: \${check}\`, transaction_id: json.transaction_id };
  }
  // An error output. Send Payout's message starts with "Outcome: <word>."; the name check's does not.
  const word = json.outcome ?? /^Outcome: (\\w+)\\./.exec(String(json.message ?? ''))?.[1];
  const description = String(json.message ?? '').replace(/^Outcome: \\w+\\.\\s*/, '');
  // The node names the item (its place among the items it was given); the row's own place is what the user can find.
  const error = String(json.error).replace(/ in item \\d+\\b/, \` on \${at}\`).replace(/\\(item \\d+\\)/, \`(\${at})\`);
  const why = [error, description].filter((part) => part !== '').map(sentence).join(' ');
  if (word === undefined) return { status: 'not sent', message: \`not sent: \${why}\` };
  if (word === 'unknown') return { status: 'unknown', message: \`outcome unknown: \${check}. \${why}\` };
  if (word === 'refused') {
    return BANK_REFUSED.test(String(json.error)) ? { status: 'refused', message: \`not made: \${why}\` } : { status: 'not sent', message: \`not sent: \${why}\` };
  }
  return { status: word, message: \`\${word}: \${why}\`, transaction_id: json.transaction_id };
};

const arrived = $input.all();
const outcomes = new Map();
arrived.forEach((item, i) => {
  const entry = $('Check Rows').itemMatching(i).json;
  outcomes.set(entry.number, outcomeOf(item.json, entry));
});
const updatedAt = new Date().toISOString();
return $('Check Rows').all().map(({ json: entry }) => {
  const lost = { status: 'unknown', message: \`outcome unknown: no result came back for \${entry.at}; check with BaaS → Transfer → Get Status, reference \${String(entry.row.reference ?? '').trim()}\` };
  const { status, message, transaction_id } = outcomes.get(entry.number) ?? lost;
  const result = { ...entry.row, status, message, transaction_id: transaction_id ?? '', updated_at: updatedAt };
  return { json: FOR_CSV ? csvSafeRow(result) : result };
});
`;
}

/** The Code nodes every payout example has (and the file's reader), by name, with the text each must hold. */
export function payoutCodeNodes(source: PayoutSource): Record<string, string> {
	const shared = { 'Check Rows': checkRowsCode(source), 'Describe Outcome': describeOutcomeCode(source) };
	return source.csv ? { 'Read CSV Lines': csvReaderCode(), ...shared } : shared;
}

/** Every parameter this file writes into an example, by node name (the Code nodes' code, the file's last page). */
export function payoutParameters(source: PayoutSource): Record<string, Record<string, string>> {
	const code = Object.fromEntries(Object.entries(payoutCodeNodes(source)).map(([name, jsCode]) => [name, { jsCode }]));
	return source.csv ? { ...code, 'Download Results': { completionMessage: PAGE_MESSAGE } } : code;
}

/** Writes the text into the examples' nodes (run after a change here; the unit test says when). */
export function writePayoutCode(): string[] {
	const written: string[] = [];
	for (const [file, source] of Object.entries(PAYOUT_SOURCES)) {
		const workflow = readExample(file);
		const parameters = payoutParameters(source);
		for (const node of workflow.nodes) if (parameters[node.name] !== undefined) node.parameters = { ...node.parameters, ...parameters[node.name] };
		writeFileSync(path.join(EXAMPLES_DIR, file), `${JSON.stringify(workflow, null, 2)}\n`);
		written.push(file);
	}
	return written;
}

if (require.main === module) process.stdout.write(`wrote the payout code into ${writePayoutCode().join(', ')}\n`);
