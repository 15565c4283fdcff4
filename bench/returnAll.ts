/** Benchmark 3: Return All over N transactions, ours vs a plain fetch loop, each run in its own process. */
import { execFile } from 'node:child_process';
import path from 'node:path';

import { startSandbox } from '../sandbox';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import type { Contender, Figures } from './lib/stats';
import { alternate, ratio } from './lib/stats';

const WORKER = path.resolve(__dirname, 'returnAllWorker.ts');

function inProcess(contender: string, scope: 'all' | 'one', url: string): Promise<Figures> {
	return new Promise((resolve, reject) => {
		execFile(process.execPath, ['--expose-gc', '--import', 'tsx', WORKER, contender, scope, url], { maxBuffer: 1 << 20, cwd: path.resolve(__dirname, '..') }, (error, stdout, stderr) => {
			if (error) return reject(new Error(`${contender} ${scope}: ${stderr || error.message}`));
			const { held: _held, ...figures } = JSON.parse(stdout.trim().split('\n').pop()!) as Figures & { held?: boolean };
			resolve(figures);
		});
	});
}

export async function returnAll(options: { transactions: number; repetitions: number }): Promise<BenchResult> {
	const bank = await startSandbox({ port: 0, transactions: options.transactions });
	try {
		const contenders: Contender[] = [];
		for (const who of ['ours', 'plain']) {
			for (const scope of ['all', 'one'] as const) contenders.push({ name: `${who} ${scope === 'all' ? 'Return All' : 'one page'}`, run: () => inProcess(who, scope, bank.url) });
		}
		const m = await alternate(contenders, options.repetitions);
		const growth = (who: string) => m[`${who} Return All`].peakRssMb - m[`${who} one page`].peakRssMb;
		const ratios = {
			'time ours/plain (Return All)': ratio(m['ours Return All'].ms, m['plain Return All'].ms),
			'peak RSS ours/plain (Return All)': ratio(m['ours Return All'].peakRssMb, m['plain Return All'].peakRssMb),
			'RSS growth ours/plain (Return All − one page)': ratio(growth('ours'), growth('plain')),
		};
		return {
			benchmark: '3. Return All: Transaction → Get Many',
			workload: `${options.transactions} transactions (pages of 100), Simplify off; each run a fresh process; growth = peak RSS of Return All − peak RSS of a one-page run of the same contender; medians of ${options.repetitions}`,
			rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
			ratios,
			targets: [target('RSS growth ours/plain', ratios['RSS growth ours/plain (Return All − one page)'], 1.3)],
			notes: [
				`peak RSS growth MB: ours ${growth('ours').toFixed(1)}, plain ${growth('plain').toFixed(1)}`,
				`heap still held after GC (the records and what paging kept), MB: ours ${m['ours Return All'].retainedMb.toFixed(1)}, plain ${m['plain Return All'].retainedMb.toFixed(1)}`,
			],
		};
	} finally {
		await bank.close();
	}
}
