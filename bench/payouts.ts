/** Benchmark 5: payouts, N intra-bank transfers one at a time, ours (exactly-once) vs a plain loop of funds_transfer. */
import type { BankFixture } from './lib/engine';
import { rl, timedFreshRun, startRequestLog } from './lib/engine';
import { plainClient } from './lib/plain';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import type { Contender } from './lib/stats';
import { alternate, ratio, timed } from './lib/stats';

const SOURCE = '0823000002';
const BENEFICIARY = '0823100001';

export async function payouts(fx: BankFixture, options: { transfers: number; latencyMs: number; repetitions: number }): Promise<BenchResult> {
	fx.bank.clearFaults();
	fx.bank.addFault({ latencyMs: options.latencyMs });
	let batch = 0;
	const rows = (prefix: string) => {
		batch++;
		return Array.from({ length: options.transfers }, (_, i) => ({ reference: `BENCH-${prefix}-${batch}-${i}`, amount: '1.00' }));
	};
	const requestsOf = (from: number) => {
		const log = fx.bank.requests().slice(from);
		return { requests: log.length, transferRequests: log.filter((r) => r.path.endsWith('/funds_transfer')).length };
	};
	const contenders: Contender[] = [
		{
			name: 'ours (Transfer → Initiate, concurrency 1)',
			run: async () => {
				const items = rows('ours');
				const { ms, run, from } = await timedFreshRun(
					fx,
					{
						resource: 'transfer',
						operation: 'create',
						referenceNumber: '={{ $json.reference }}',
						transferType: 'intra',
						amount: '={{ $json.amount }}',
						sourceAccountNumber: rl(SOURCE, 'id'),
						beneficiaryAccountNumber: BENEFICIARY,
						narration: 'Benchmark payout',
					},
					items,
				);
				if (run.error) throw new Error(`payouts: ${run.error.message}`);
				const failed = run.json.filter((j) => j.status !== 'successful').length;
				return { ms, ...requestsOf(from), failed };
			},
		},
		{
			name: 'plain loop of funds_transfer',
			run: async () => {
				const items = rows('plain');
				const from = await startRequestLog(fx);
				let failed = 0;
				const { ms } = await timed(async () => {
					const client = await plainClient(fx.bank);
					for (const item of items) {
						const answer = await client.post('/transaction/transfer/api/funds_transfer', {
							reference_number: item.reference,
							transfer_type: 'intra',
							amount: item.amount,
							source_account_number: SOURCE,
							beneficiary_account_number: BENEFICIARY,
							bank_code: '090823',
							narration: 'Benchmark payout',
						});
						if (!answer.status) failed++;
					}
				});
				return { ms, ...requestsOf(from), failed };
			},
		},
	];
	const m = await alternate(contenders, options.repetitions);
	fx.bank.clearFaults();
	const [ours, plain] = contenders.map((c) => m[c.name]);
	const ratios = { 'time ours/plain': ratio(ours.ms, plain.ms), 'requests ours/plain': ratio(ours.requests, plain.requests) };
	return {
		benchmark: '5. Payouts: Transfer → Initiate',
		workload: `${options.transfers} intra-bank transfers of 1.00, one at a time, sandbox latency ${options.latencyMs} ms, nothing fails; requests include the one token request; medians of ${options.repetitions}`,
		rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
		ratios,
		targets: [target('time ours/plain', ratios['time ours/plain'], 1.1), target('extra requests', ours.requests - plain.requests, 0)],
	};
}
