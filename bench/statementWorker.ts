/**
 * One statement run in a process of its own, so its peak RSS is its own: `tsx bench/statementWorker.ts
 * <csv|csv-memory|items|read|plain|plain-1000> <all|one> <bank url>` (with --expose-gc). Prints one JSON line
 * { ms, records, peakRssMb, retainedMb }.
 * `all` is the whole generated history; `one` a period with nothing in it (ours) or one page (plain): the process's
 * own footprint, which the growth is measured over. `read` reads the same pages as Get Statement, through the same
 * transport inside n8n, and keeps nothing: the floor any node reading through n8n's HTTP client starts from.
 * The binary-data mode is n8n 2's default, `filesystem` (the file goes to disk); `csv-memory` is n8n 1's default
 * in-memory mode (the file kept as base64 text in the item). `plain` reads pages of 100 (as benchmark 3's plain
 * loop), `plain-1000` the pages Get Statement asks for (READING_PAGE_SIZE): the same requests.
 */
import './lib/env';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { READING_PAGE_SIZE } from '../nodes/common/actions/reconciliation/pages';
import { API } from '../test/engine/harness/bankFixture';
import { TestCredentialsHelper } from '../test/engine/harness/credentialsHelper';
import { runNode } from '../test/engine/harness/runNode';
import type { SandboxHandle } from '../sandbox';
import { plainClient } from './lib/plain';
import { readOnly } from './lib/readOnlyNode';
import { timed } from './lib/stats';

const SANDBOX_SECRET = { clientId: 'sandbox_client_id', clientSecret: 'sandbox_client_secret_4f9c2e7a1b' };
const ALL = { start_date: '2000-01-01', end_date: '2100-12-31' };
const NOTHING = { start_date: '2000-01-01', end_date: '2000-01-01' };

/** Get Statement (or the read-only loop) through the engine; what it hands on is held. */
async function ours(url: string, output: string, all: boolean): Promise<unknown> {
	const credentials = new TestCredentialsHelper();
	credentials.add(API.baasApi, 'baasApi', { baseUrl: url, ...SANDBOX_SECRET, webhookSecret: 'unused', accessToken: '' });
	const period = all ? ALL : NOTHING;
	const dates = { startDate: period.start_date, endDate: period.end_date };
	const run =
		output === 'read'
			? await readOnly(credentials, period)
			: await runNode(credentials, {
					parameters: { authentication: 'apiClient', resource: 'reconciliation', operation: 'getStatement', ...dates, output },
					credentials: API,
				});
	if (run.error) throw new Error(String(run.error.message));
	(globalThis as { held?: unknown }).held = run.items;
	return output === 'items' ? run.items.length : Number(run.json[0].count);
}

/** A plain fetch page loop over the same period (bench/lib/plain.ts's client), holding every record. */
async function plain(url: string, all: boolean, pageSize: number): Promise<unknown> {
	const client = await plainClient({ url, seed: SANDBOX_SECRET } as unknown as SandboxHandle);
	const records: unknown[] = [];
	for (let page = 1; ; page++) {
		const batch = (await client.post('/transaction/api/fetch_transactions', { filters: ALL, page, page_size: pageSize })).data as unknown[];
		records.push(...batch);
		if (!all || batch.length < pageSize) break;
	}
	(globalThis as { held?: unknown }).held = records;
	return records.length;
}

void (async () => {
	const [contender, scope, url] = process.argv.slice(2);
	const storage = path.join(os.tmpdir(), `baas-bench-binary-${process.pid}`);
	if (contender !== 'csv-memory') {
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		process.env.N8N_STORAGE_PATH = storage;
		await Container.get(BinaryDataService).init();
	}
	const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	const all = scope === 'all';
	const { ms, value: records } = await timed(() =>
		contender.startsWith('plain') ? plain(url, all, contender === 'plain' ? 100 : READING_PAGE_SIZE) : ours(url, contender === 'csv-memory' ? 'csv' : contender, all),
	);
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	gc();
	const retainedMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
	fs.rmSync(storage, { recursive: true, force: true });
	process.stdout.write(`${JSON.stringify({ ms, records, peakRssMb, retainedMb })}\n`);
})().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
