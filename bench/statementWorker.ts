/**
 * One statement run in a process of its own, so its peak RSS is its own: `tsx bench/statementWorker.ts
 * <csv|items|plain> <all|one> <bank url>` (with --expose-gc). Prints one JSON line { ms, records, peakRssMb, retainedMb }.
 * `all` is the whole generated history; `one` a period with nothing in it (ours) or one page (plain): the process's
 * own footprint, which the growth is measured over.
 */
import './lib/env';

import { API } from '../test/engine/harness/bankFixture';
import { TestCredentialsHelper } from '../test/engine/harness/credentialsHelper';
import { runNode } from '../test/engine/harness/runNode';
import type { SandboxHandle } from '../sandbox';
import { plainClient } from './lib/plain';
import { timed } from './lib/stats';

const SANDBOX_SECRET = { clientId: 'sandbox_client_id', clientSecret: 'sandbox_client_secret_4f9c2e7a1b' };
const PAGE = 100;
const ALL = { start_date: '2000-01-01', end_date: '2100-12-31' };
const NOTHING = { start_date: '2000-01-01', end_date: '2000-01-01' };

/** Get Statement through the engine; what it hands on (one CSV item, or one item per transaction) is held. */
async function ours(url: string, output: string, all: boolean): Promise<unknown> {
	const credentials = new TestCredentialsHelper();
	credentials.add(API.baasApi, 'baasApi', { baseUrl: url, ...SANDBOX_SECRET, webhookSecret: 'unused', accessToken: '' });
	const period = all ? ALL : NOTHING;
	const run = await runNode(credentials, {
		parameters: { authentication: 'apiClient', resource: 'reconciliation', operation: 'getStatement', startDate: period.start_date, endDate: period.end_date, output },
		credentials: API,
	});
	if (run.error) throw new Error(String(run.error.message));
	(globalThis as { held?: unknown }).held = run.items;
	return output === 'csv' ? Number(run.json[0].count) : run.items.length;
}

/** A plain fetch page loop over the same period (bench/lib/plain.ts's client), holding every record. */
async function plain(url: string, all: boolean): Promise<unknown> {
	const client = await plainClient({ url, seed: SANDBOX_SECRET } as unknown as SandboxHandle);
	const records: unknown[] = [];
	for (let page = 1; ; page++) {
		const batch = (await client.post('/transaction/api/fetch_transactions', { filters: ALL, page, page_size: PAGE })).data as unknown[];
		records.push(...batch);
		if (!all || batch.length < PAGE) break;
	}
	(globalThis as { held?: unknown }).held = records;
	return records.length;
}

void (async () => {
	const [contender, scope, url] = process.argv.slice(2);
	const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	const { ms, value: records } = await timed(() => (contender === 'plain' ? plain(url, scope === 'all') : ours(url, contender, scope === 'all')));
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	gc();
	const retainedMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
	process.stdout.write(`${JSON.stringify({ ms, records, peakRssMb, retainedMb })}\n`);
})().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
