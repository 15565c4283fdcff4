/**
 * Reads CSV as n8n's Convert to File writes it: a byte-order mark first (its spreadsheet library writes one), a
 * header line, commas, values in double quotes when they hold one ("" inside).
 */
export function parseCsv(csv: string): Array<Record<string, string>> {
	const text = csv.replace(/^\uFEFF/, '');
	const records: string[][] = [];
	let record: string[] = [];
	let value = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				value += '"';
				i++;
			} else if (char === '"') quoted = false;
			else value += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			record.push(value);
			value = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && text[i + 1] === '\n') i++;
			record.push(value);
			records.push(record);
			record = [];
			value = '';
		} else value += char;
	}
	if (value !== '' || record.length > 0) records.push([...record, value]);
	const [header, ...rows] = records.filter((r) => r.length > 1 || r[0] !== '');
	return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

/** Writes CSV as a spreadsheet saves it: a header line, a value in double quotes when it holds one, a comma or a line break. */
export function writeCsv(columns: string[], rows: Array<Record<string, string>>): string {
	const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
	return [columns, ...rows.map((row) => columns.map((column) => row[column] ?? ''))].map((cells) => cells.map(cell).join(',')).join('\r\n') + '\r\n';
}
