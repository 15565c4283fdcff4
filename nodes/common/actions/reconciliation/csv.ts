/** CSV text for a statement: RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */

/**
 * A cell starting with = + - @ (after spaces), a tab, a carriage return or a NUL may run as a formula in a
 * spreadsheet: it gets a leading ' (as the payout examples' results do). Plain numbers such as -5 stay as they are.
 */
export function csvSafe(value: unknown): string {
	const text = value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
	const formula = /^[\t\r\0]|^\s*[=+\-@]/.test(text) && !/^\s*[+-]?\d+(\.\d+)?\s*$/.test(text);
	return formula ? `'${text}` : text;
}

/** Text that needs neither a leading ' nor quotes: most cells of a statement, so they skip the checks below. */
const PLAIN_CELL = /^[^=+\-@\s",][^",\r\n]*$/;

/** One CSV cell. */
function csvCell(value: unknown): string {
	if (typeof value === 'string' && PLAIN_CELL.test(value)) return value;
	const cell = csvSafe(value);
	return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One CSV line (without its line break). */
export function csvLine(values: unknown[]): string {
	let line = '';
	for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
	return line;
}
