/**
 * One Return All run in a process of its own, so its peak RSS is its own: `tsx bench/returnAllWorker.ts
 * <ours|plain> <all|one> <bank url>` (with --expose-gc). Prints one JSON line { ms, records, peakRssMb, retainedMb }.
 */
import './lib/env';

import { API } from '../test/engine/harness/bankFixture';
import { TestCredentialsHelper } from '../test/engine/harness/credentialsHelper';
import { runNode } from '../test/engine/harness/runNode';
import { timed } from './lib/stats';

const SANDBOX_SECRET = { clientId: 'sandbox_client_id', clientSecret: 'sandbox_client_secret_4f9c2e7a1b' };
const PAGE = 100;

async function ours(url: string, all: boolean): Promise<unknown[]> {
	const credentials = new TestCredentialsHelper();
	credentials.add(API.baasApi, 'baasApi', { baseUrl: url, ...SANDBOX_SECRET, webhookSecret: 'unused', accessToken: '' });
	const run = await runNode(credentials, {
		parameters: { authentication: 'apiClient', resource: 'transaction', operation: 'getAll', returnAll: all, limit: PAGE, simplify: false },
		credentials: API,
	});
	if (run.error) throw new Error(String(run.error.message));
	return run.items;
}

async function plain(url: string, all: boolean): Promise<unknown[]> {
	const tokenAnswer = await fetch(`${url}/api/v1/security/api/generate_token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: SANDBOX_SECRET.clientId, client_secret: SANDBOX_SECRET.clientSecret }),
	});
	const token = ((await tokenAnswer.json()) as { data: { token: string } }).data.token;
	const records: unknown[] = [];
	for (let page = 1; ; page++) {
		const answer = await fetch(`${url}/api/v1/transaction/api/fetch_transactions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
			body: JSON.stringify({ page, page_size: PAGE }),
		});
		const batch = ((await answer.json()) as { data: unknown[] }).data;
		records.push(...batch);
		if (!all || batch.length < PAGE) break;
	}
	return records;
}

void (async () => {
	const [contender, scope, url] = process.argv.slice(2);
	const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	let held: unknown;
	const { ms, value: records } = await timed(async () => {
		held = await (contender === 'ours' ? ours : plain)(url, scope === 'all');
		return (held as unknown[]).length;
	});
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	// What the run still holds once garbage is collected: the records themselves, and what paging kept.
	gc();
	const retainedMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
	process.stdout.write(`${JSON.stringify({ ms, records, peakRssMb, retainedMb, held: held !== undefined })}\n`);
})().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
