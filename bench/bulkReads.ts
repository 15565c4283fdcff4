/** Benchmark 1: 2,000 Account → Get Balance items at concurrency 1 / default / 20, ours vs plain fetch. */
import { DEFAULT_READ_CONCURRENCY } from '../nodes/Baas/actions/commonFields';
import { balanceItems, balanceParameters } from './lib/balanceReads';
import type { BankFixture } from './lib/engine';
import { requestsSince, timedFreshRun, startRequestLog } from './lib/engine';
import { plainClient, pool } from './lib/plain';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import type { Contender } from './lib/stats';
import { alternate, ratio, timed } from './lib/stats';

export interface BulkReadsOptions {
	items: number;
	latencyMs: number;
	repetitions: number;
	concurrencies: number[];
}

export function oursContender(fx: BankFixture, name: string, items: object[], concurrency?: number): Contender {
	return {
		name,
		run: async () => {
			const { ms, run, from } = await timedFreshRun(fx, balanceParameters(concurrency), items);
			if (run.error) throw new Error(`${name}: ${run.error.message}`);
			return {
				ms,
				items: run.json.length,
				tokenRequests: requestsSince(fx, from, '/generate_token'),
				requests: fx.bank.requests().length - from,
			};
		},
	};
}

export async function bulkReads(fx: BankFixture, options: BulkReadsOptions): Promise<BenchResult> {
	fx.bank.clearFaults();
	fx.bank.addFault({ latencyMs: options.latencyMs });
	const concurrencies = options.concurrencies.map((c) => (c === 0 ? DEFAULT_READ_CONCURRENCY : c));
	// One at a time, time is linear in the item count: a quarter of the items gives the same ratio in a quarter
	// of the time, which keeps npm run bench under 10 minutes.
	const countAt = (concurrency: number) => (concurrency === 1 ? Math.ceil(options.items / 4) : options.items);
	const contenders: Contender[] = [];
	for (const concurrency of concurrencies) {
		const items = balanceItems(fx, countAt(concurrency));
		contenders.push(oursContender(fx, `ours @${concurrency}`, items, concurrency));
		contenders.push({
			name: `fetch @${concurrency}`,
			run: async () => {
				const from = await startRequestLog(fx);
				const { ms } = await timed(async () => {
					const client = await plainClient(fx.bank);
					await pool(items.length, concurrency, async (i) => {
						const answer = await client.post('/account/api/get_account_balance', items[i]);
						if (!answer.status) throw new Error(`fetch: ${answer.response_code}`);
					});
				});
				return {
					ms,
					items: items.length,
					tokenRequests: requestsSince(fx, from, '/generate_token'),
					requests: fx.bank.requests().length - from,
				};
			},
		});
	}
	const medians = await alternate(contenders, options.repetitions);
	fx.bank.clearFaults();
	const ratios: Record<string, number> = {};
	for (const c of concurrencies) ratios[`ours/fetch @${c}`] = ratio(medians[`ours @${c}`].ms, medians[`fetch @${c}`].ms);
	const targets = [];
	if (concurrencies.includes(DEFAULT_READ_CONCURRENCY)) {
		targets.push(target(`ours/fetch @default (${DEFAULT_READ_CONCURRENCY})`, ratios[`ours/fetch @${DEFAULT_READ_CONCURRENCY}`], 1.15));
	}
	if (concurrencies.includes(20)) targets.push(target('ours/fetch @20', ratios['ours/fetch @20'], 1.3));
	return {
		benchmark: '1. Bulk reads: Account → Get Balance',
		workload: `${options.items} items (${countAt(1)} at concurrency 1), sandbox latency ${options.latencyMs} ms per request, concurrency ${concurrencies.join(' / ')}, medians of ${options.repetitions} alternated runs; each run starts without a token`,
		rows: Object.entries(medians).map(([contender, figures]) => ({ contender, figures })),
		ratios,
		targets,
	};
}
