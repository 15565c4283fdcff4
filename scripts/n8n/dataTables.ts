/**
 * n8n's data tables (the built-in Data Table node's storage), through the REST API the editor uses; the same
 * routes on 1.123 and 2.41 (`/rest/projects/<project>/data-tables`), and the module is on by default on both.
 */

import { EXPECTED_PAYMENT_COLUMNS, EXPECTED_PAYMENTS } from './expectedPayments';

export type Row = Record<string, string | null>;

/** The tables the no-account examples use, by name: their columns are all strings (amounts are decimal strings). */
export const EXAMPLE_TABLES: Record<string, string[]> = {
	'BaaS payouts': ['reference', 'account_number', 'bank_code', 'account_name', 'amount', 'narration', 'status', 'message', 'transaction_id', 'updated_at'],
	'BaaS collections': ['received_at', 'reference', 'account_number', 'account_name', 'amount', 'remarks'],
	'BaaS daily reports': ['settled_on', 'total_balance', 'settled_count', 'settled_amount'],
	// The treasury assistant's record: one row per payment its agent asked for, approved or declined.
	'BaaS payment decisions': ['time', 'reference', 'amount', 'source', 'beneficiary', 'bank_code', 'decision', 'outcome', 'execution_id'],
	// The daily close's (examples/daily-close.json): the bank's day plan says what each row comes to.
	[EXPECTED_PAYMENTS]: EXPECTED_PAYMENT_COLUMNS,
};

export interface DataTableClient {
	/** Table ids by name, creating the tables of EXAMPLE_TABLES that are missing; `created` names those it made. */
	ensure(): Promise<{ ids: Record<string, string>; created: string[] }>;
	insert(tableId: string, rows: object[]): Promise<void>;
	rows(tableId: string): Promise<Array<Row & { id: number }>>;
}

export function dataTables(url: string, cookie: string): DataTableClient {
	const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${url}/rest${path}`, {
			method,
			headers: { cookie, 'content-type': 'application/json', 'browser-id': 'baas-examples' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`n8n ${method} /rest${path}: HTTP ${response.status} ${await response.text()}`);
		return ((await response.json()) as { data: T }).data;
	};
	let project: Promise<string> | undefined;
	const base = async () => {
		project ??= call<{ id: string }>('GET', '/projects/personal').then((p) => p.id);
		return `/projects/${await project}/data-tables`;
	};
	return {
		async ensure() {
			const listed = await call<{ data: Array<{ id: string; name: string }> }>('GET', `${await base()}?take=100`);
			const ids = Object.fromEntries(listed.data.map((table) => [table.name, table.id]));
			const created: string[] = [];
			for (const [name, columns] of Object.entries(EXAMPLE_TABLES)) {
				if (ids[name]) continue;
				const table = await call<{ id: string }>('POST', await base(), { name, columns: columns.map((column) => ({ name: column, type: 'string' })) });
				ids[name] = table.id;
				created.push(name);
			}
			return { ids, created };
		},
		async insert(tableId, rows) {
			await call('POST', `${await base()}/${tableId}/insert`, { data: rows, returnType: 'count' });
		},
		async rows(tableId) {
			const page = await call<{ data: Array<Row & { id: number }> }>('GET', `${await base()}/${tableId}/rows?take=1000`);
			return page.data;
		},
	};
}
