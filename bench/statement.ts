/**
 * Benchmark 7 (issue 35): Reconciliation → Get Statement over N transactions, as a CSV file and as items, against
 * a plain fetch page loop holding the same records; each run in its own process (the method of benchmark 3,
 * bench/returnAll.ts): time, peak RSS, growth over a run that reads (almost) nothing, heap held after GC.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

import { startSandbox } from '../sandbox';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import type { Contender, Figures } from './lib/stats';
import { alternate, ratio } from './lib/stats';

const WORKER = path.resolve(__dirname, 'statementWorker.ts');

function inWorker(args: string[]): Promise<Figures> {
	return new Promise((resolve, reject) => {
		execFile(process.execPath, ['--expose-gc', '--import', 'tsx', WORKER, ...args], { maxBuffer: 1 << 20, cwd: path.resolve(__dirname, '..') }, (error, stdout, stderr) => {
			if (error) return reject(new Error(`${args.join(' ')}: ${stderr || error.message}`));
			resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Figures);
		});
	});
}

export async function statement(options: { transactions: number; repetitions: number }): Promise<BenchResult> {
	const bank = await startSandbox({ port: 0, transactions: options.transactions });
	try {
		const contenders: Contender[] = [];
		for (const who of ['csv', 'items', 'plain']) {
			for (const scope of ['all', 'one']) contenders.push({ name: `${who} ${scope}`, run: () => inWorker([who, scope, bank.url]) });
		}
		const m = await alternate(contenders, options.repetitions);
		const growth = (who: string) => m[`${who} all`].peakRssMb - m[`${who} one`].peakRssMb;
		const ratios = {
			'time CSV/plain': ratio(m['csv all'].ms, m['plain all'].ms),
			'RSS growth CSV/plain': ratio(growth('csv'), growth('plain')),
			'time items/plain': ratio(m['items all'].ms, m['plain all'].ms),
			'RSS growth items/plain': ratio(growth('items'), growth('plain')),
		};
		return {
			benchmark: '7. Reconciliation → Get Statement',
			workload: `${options.transactions} transactions (pages of 100), the whole history as one statement; each run a fresh process; growth = peak RSS of the run − peak RSS of a run reading nothing (ours) or one page (plain); medians of ${options.repetitions}`,
			rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
			ratios,
			targets: [target('RSS growth CSV/plain', ratios['RSS growth CSV/plain'], 1.3), target('time CSV/plain', ratios['time CSV/plain'], 1.1)],
			notes: [`peak RSS growth MB: CSV ${growth('csv').toFixed(1)}, items ${growth('items').toFixed(1)}, plain ${growth('plain').toFixed(1)}`],
		};
	} finally {
		await bank.close();
	}
}
