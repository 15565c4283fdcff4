/**
 * Benchmark 1: 2,000 Account → Get Balance items at concurrency 1 / 5 / 20 / default, ours vs plain fetch. At the
 * default the node finds the bank's pace between 5 and 50 in flight; fetch is given the 50 it reaches.
 */
import { FIRST_READS_IN_FLIGHT, MOST_READS_IN_FLIGHT } from '../nodes/common/actions/commonFields';
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
	// 0 stands for the node's default (no Concurrency option).
	const concurrencies = options.concurrencies;
	const label = (c: number) => (c === 0 ? 'default' : String(c));
	const fetchConcurrency = (c: number) => (c === 0 ? MOST_READS_IN_FLIGHT : c);
	// One at a time, time is linear in the item count: a quarter of the items gives the same ratio in a quarter
	// of the time, which keeps npm run bench under 10 minutes.
	const countAt = (concurrency: number) => (concurrency === 1 ? Math.ceil(options.items / 4) : options.items);
	const contenders: Contender[] = [];
	for (const concurrency of concurrencies) {
		const items = balanceItems(fx, countAt(concurrency));
		contenders.push(oursContender(fx, `ours @${label(concurrency)}`, items, concurrency || undefined));
		contenders.push({
			name: `fetch @${fetchConcurrency(concurrency)}`,
			run: async () => {
				const from = await startRequestLog(fx);
				const { ms } = await timed(async () => {
					const client = await plainClient(fx.bank);
					await pool(items.length, fetchConcurrency(concurrency), async (i) => {
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
	for (const c of concurrencies) {
		ratios[`ours @${label(c)}/fetch @${fetchConcurrency(c)}`] = ratio(medians[`ours @${label(c)}`].ms, medians[`fetch @${fetchConcurrency(c)}`].ms);
	}
	const targets = [];
	if (concurrencies.includes(FIRST_READS_IN_FLIGHT)) {
		targets.push(target(`ours/fetch @${FIRST_READS_IN_FLIGHT} (where the default starts)`, ratios[`ours @${FIRST_READS_IN_FLIGHT}/fetch @${FIRST_READS_IN_FLIGHT}`], 1.15));
	}
	if (concurrencies.includes(0)) {
		targets.push(target(`ours @default/fetch @${MOST_READS_IN_FLIGHT} (the most the default reaches)`, ratios[`ours @default/fetch @${MOST_READS_IN_FLIGHT}`], 1.15));
	}
	if (concurrencies.includes(20)) targets.push(target('ours/fetch @20', ratios['ours @20/fetch @20'], 1.3));
	return {
		benchmark: '1. Bulk reads: Account → Get Balance',
		workload: `${options.items} items (${countAt(1)} at concurrency 1), sandbox latency ${options.latencyMs} ms per request, concurrency ${concurrencies.map(label).join(' / ')} (default: from ${FIRST_READS_IN_FLIGHT} up to ${MOST_READS_IN_FLIGHT} in flight as the bank keeps up), medians of ${options.repetitions} alternated runs; each run starts without a token`,
		rows: Object.entries(medians).map(([contender, figures]) => ({ contender, figures })),
		ratios,
		targets,
	};
}
