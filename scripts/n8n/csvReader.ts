/**
 * The CSV reader of the examples that read a file (payouts from a file; any example that reads expected payments
 * or statements from a CSV can use it the same way): one JavaScript text, run in an n8n Code node after Extract
 * From File → Extract From Text File. n8n's own CSV reading (Extract From File → CSV) fails the whole file on one
 * line with a value too many ("Invalid Record Length"), or with Skip Records With Errors drops that line without a
 * word, and reads one separator chosen in advance; this reader answers every line instead.
 *
 * Use it as payouts-from-file.json does: Extract From File (operation Extract From Text File, field `data`,
 * encoding UTF-8) → a Code node (Run Once for All Items) whose code is `csvReaderCode()` → one item per line,
 * `{ line, problem, row }`: `row` is the line's values by the header's column names, `problem` is '' or what is
 * wrong with that line (the next node answers it instead of using it). test/unit/csv-reader.test.ts runs it.
 */
import { runInNewContext } from 'node:vm';

export interface CsvLine {
	/** The line as a spreadsheet numbers it: the header is line 1; a quoted value with line breaks keeps one line. */
	line: number;
	/** '' or what is wrong with this line, naming it; its `row` may then hold values under the wrong columns. */
	problem: string;
	row: Record<string, string>;
}

export interface CsvRead {
	/** The separator found: the one the header line uses most of , ; and tab, or the one a first line "sep=;" names. */
	separator: string;
	columns: string[];
	lines: CsvLine[];
}

/**
 * `readCsv(text)`: the lines after the header, each with its problem. Lines whose values are all blank (an empty
 * line, or ",,,," as a spreadsheet saves an empty row) are skipped but counted. A line with more or fewer values
 * than the header has, a double quote never closed, a header naming a column twice, or text that was not UTF-8
 * (read as U+FFFD) is answered with a problem, never guessed at: a value moved to another column could pay the
 * wrong amount.
 */
export const CSV_READER_JS = `const readCsv = (input) => {
  let text = typeof input === 'string' ? input : '';
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const end = text.length;
  const nameOf = { ',': 'a comma', ';': 'a semicolon', '\\t': 'a tab' };
  // One record from pos: its values, where the next starts, and whether a quote opened and was never closed.
  const record = (pos, separator, quotes) => {
    const values = [];
    let value = '';
    let quoted = false;
    let i = pos;
    while (i < end) {
      const c = text[i];
      if (quoted) {
        if (c !== '"') value += c;
        else if (text[i + 1] === '"') { value += '"'; i += 1; }
        else quoted = false;
      } else if (c === '"' && quotes && value.trim() === '') { value = ''; quoted = true; }
      else if (c === separator) { values.push(value); value = ''; }
      else if (c === '\\n' || c === '\\r') {
        values.push(value);
        return { values, next: c === '\\r' && text[i + 1] === '\\n' ? i + 2 : i + 1, unclosed: false };
      } else value += c;
      i += 1;
    }
    values.push(value);
    return { values, next: end, unclosed: quoted };
  };
  const blank = (values) => values.every((value) => value.trim() === '');
  // The separator a header line uses most of, outside quotes (a comma when it has none).
  const separatorOf = (pos) => {
    const counts = { ',': 0, ';': 0, '\\t': 0 };
    let quoted = false;
    for (let i = pos; i < end; i += 1) {
      const c = text[i];
      if (c === '"') quoted = !quoted;
      else if (!quoted && (c === '\\n' || c === '\\r')) break;
      else if (!quoted && c in counts) counts[c] += 1;
    }
    return Object.keys(counts).reduce((best, s) => (counts[s] > counts[best] ? s : best), ',');
  };
  let pos = 0;
  let line = 1;
  const hint = /^sep=(.)(\\r\\n|\\n|\\r|$)/i.exec(text.slice(0, 7));
  if (hint) { pos = hint[0].length; line = 2; }
  // The header: the first line that is not blank.
  let header;
  let separator = hint ? hint[1] : ',';
  while (pos < end && !header) {
    const here = hint ? separator : separatorOf(pos);
    const read = record(pos, here, true);
    pos = read.next;
    if (blank(read.values)) line += 1;
    else { header = read.values.map((name) => name.trim()); separator = here; }
  }
  if (!header) return { separator, columns: [], lines: [] };
  const columns = header.map((name, i) => name || \`column_\${i + 1}\`);
  const twice = columns.filter((name, i) => columns.indexOf(name) !== i);
  const sep = nameOf[separator] ?? \`"\${separator}"\`;
  // What is wrong with a line read whole ('' when nothing is).
  const problemOf = (values, line) => {
    if (values.length > columns.length) {
      const extra = values.slice(columns.length).join(separator);
      return \`line \${line} has \${values.length} values where the header has \${columns.length} columns: a value holding \${sep} needs double quotes around it, or the line has a value too many ("\${extra}")\`;
    }
    if (values.length < columns.length) {
      return \`line \${line} has \${values.length} values where the header has \${columns.length} columns (\${columns.join(', ')}): give it every column, even an empty one, so no value sits under another's name\`;
    }
    if (twice.length > 0) {
      return \`the header names \${[...new Set(twice)].join(', ')} more than once: name each column once, so line \${line}'s values are not read from the wrong one\`;
    }
    if (values.some((value) => value.includes('\\ufffd'))) {
      return \`line \${line} holds characters that are not UTF-8 (shown as \\ufffd): save the file as "CSV UTF-8" and upload it again\`;
    }
    return '';
  };
  const lines = [];
  while (pos < end) {
    line += 1;
    const whole = record(pos, separator, true);
    // A quote that opens a value and never closes would swallow the rest of the file: this line alone is read
    // with its quotes as plain text, and the lines after it are read as usual.
    const { values, next } = whole.unclosed ? record(pos, separator, false) : whole;
    pos = next;
    if (blank(values)) continue;
    const problem = whole.unclosed
      ? \`line \${line} has a double quote (") that opens a value and is never closed: close it, and write a quote inside a quoted value as ""\`
      : problemOf(values, line);
    const row = {};
    columns.forEach((name, i) => { if (!(name in row)) row[name] = values[i] ?? ''; });
    lines.push({ line, problem, row });
  }
  return { separator, columns, lines };
};`;

/** The same reader as a function, for tests and for what reads CSV outside n8n. */
export const readCsv = runInNewContext(`${CSV_READER_JS}; readCsv`) as (text: unknown) => CsvRead;

export interface CsvReaderOptions {
	/** The field of each input item holding the file's text: Extract From Text File's Destination Output Field. */
	field?: string;
}

/**
 * A Code node's source (Run Once for All Items): every file of its input read, one item per line, each paired to
 * the file's item. A file with no header, or nothing after it, gives one item with that problem, so the next
 * nodes always have a line to answer and the workflow reaches its end.
 */
export function csvReaderCode({ field = 'data' }: CsvReaderOptions = {}): string {
	return `// Reads the uploaded CSV line by line (scripts/n8n/csvReader.ts writes this code): a byte-order mark, "," ";"
// or tab between values, quoted values with separators, quotes and line breaks. Every line becomes one item
// { line, problem, row }: a line with a value too many or too few is answered with its problem instead of
// failing the whole file.
const FIELD = '${field}';
${CSV_READER_JS}
const out = [];
$input.all().forEach((item, index) => {
  const text = item.json[FIELD];
  const { columns, lines } = readCsv(text);
  const alone = (line, problem) => out.push({ json: { line, problem, row: {} }, pairedItem: { item: index } });
  if (typeof text !== 'string') alone(1, \`no text in the field "\${FIELD}": read the file with Extract From File → Extract From Text File\`);
  else if (columns.length === 0) alone(1, 'the file is empty: its first line names the columns, and each line after it is one row');
  else if (lines.length === 0) alone(2, \`the file has its header line (\${columns.join(', ')}) and no line after it\`);
  else for (const line of lines) out.push({ json: line, pairedItem: { item: index } });
});
return out;
`;
}
