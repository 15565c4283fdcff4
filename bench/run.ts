/**
 * npm run bench: every engine-level benchmark of issue 11, contenders alternated within one run, medians and
 * ratios printed, JSON summary in bench/results/. BENCH_SIZE=small runs a quick smoke version;
 * BENCH_ONLY=1,3 runs only some.
 */
import './lib/env';

import { bulkReads } from './bulkReads';
import { httpRequestNode } from './httpRequestNode';
import { startBankFixture } from './lib/engine';
import type { BenchResult } from './lib/report';
import { machine, printResult, saveResults } from './lib/report';
import { payouts } from './payouts';
import { reconciliationDay } from './reconciliation';
import { returnAll } from './returnAll';
import { statement } from './statement';
import { triggerIntake } from './triggerIntake';

const small = process.env.BENCH_SIZE === 'small';
const only = process.env.BENCH_ONLY?.split(',').map(Number);
const wanted = (n: number) => !only || only.includes(n);
const REPETITIONS = small ? 1 : 3;
const LATENCY_MS = 20;

void (async () => {
	const m = machine();
	process.stdout.write(`# npm run bench — ${m.date}\nmachine: ${m.cpus}, ${m.memoryGb} GB, Node ${m.node}, load ${m.loadavg.join(' ')}\n`);
	const results: BenchResult[] = [];
	const report = (result: BenchResult) => {
		printResult(result);
		results.push(result);
	};
	const fx = await startBankFixture();
	try {
		if (wanted(1)) {
			report(await bulkReads(fx, { items: small ? 200 : 2000, latencyMs: LATENCY_MS, repetitions: REPETITIONS, concurrencies: [1, 5, 20, 0].filter((c) => !small || c !== 1) }));
		}
		if (wanted(2)) report(await httpRequestNode(fx, { items: small ? 200 : 2000, latencyMs: LATENCY_MS, repetitions: REPETITIONS }));
		if (wanted(4)) report(await triggerIntake(fx, { deliveries: small ? 500 : 5000, repetitions: REPETITIONS }));
		if (wanted(5)) report(await payouts(fx, { transfers: small ? 50 : 500, latencyMs: LATENCY_MS, repetitions: REPETITIONS }));
	} finally {
		await fx.bank.close();
	}
	if (wanted(6)) {
		const day = await startBankFixture({ transactions: 0 });
		try {
			report(await reconciliationDay(day, { rows: small ? 1000 : 10_000, repetitions: REPETITIONS, latencyMs: LATENCY_MS }));
		} finally {
			await day.bank.close();
		}
	}
	if (wanted(7)) report(await statement({ transactions: small ? 10_000 : 100_000, repetitions: REPETITIONS }));
	if (wanted(3)) report(await returnAll({ transactions: small ? 10_000 : 100_000, repetitions: REPETITIONS }));
	process.stdout.write(`\nJSON summary: ${saveResults(small ? 'bench-small' : 'bench', results)}\n`);
})().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
