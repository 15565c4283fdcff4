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
		for (const who of ['csv', 'csv-memory', 'items', 'read', 'plain', 'plain-1000']) {
			for (const scope of ['all', 'one']) contenders.push({ name: `${who} ${scope}`, run: () => inWorker([who, scope, bank.url]) });
		}
		const m = await alternate(contenders, options.repetitions);
		const growth = (who: string) => m[`${who} all`].peakRssMb - m[`${who} one`].peakRssMb;
		// The targets are judged against the plain loop asking the same pages (plain-1000); `plain` (pages of 100) is
		// benchmark 3's reference. `read` is the floor: the same pages through n8n's HTTP client, nothing kept.
		const against = (who: string, reference: string) => ({
			[`time ${who}/${reference}`]: ratio(m[`${who} all`].ms, m[`${reference} all`].ms),
			[`RSS growth ${who}/${reference}`]: ratio(growth(who), growth(reference)),
		});
		const ratios = {
			...against('csv', 'plain-1000'),
			...against('csv-memory', 'plain-1000'),
			...against('items', 'plain-1000'),
			...against('read', 'plain-1000'),
			...against('csv', 'read'),
			...against('csv', 'plain'),
		};
		return {
			benchmark: '7. Reconciliation → Get Statement',
			workload: `${options.transactions} transactions (Get Statement asks pages of 1,000), the whole history as one statement; csv in n8n 2's filesystem binary mode, csv-memory in n8n 1's in-memory mode; read: the same pages through n8n, nothing kept; each run a fresh process; growth = peak RSS of the run − peak RSS of a run reading nothing (ours) or one page (plain); medians of ${options.repetitions}`,
			rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
			ratios,
			targets: [target('RSS growth csv/plain-1000', ratios['RSS growth csv/plain-1000'], 1.3), target('time csv/plain-1000', ratios['time csv/plain-1000'], 1.1)],
			notes: [`peak RSS growth MB: ${['csv', 'csv-memory', 'items', 'read', 'plain', 'plain-1000'].map((who) => `${who} ${growth(who).toFixed(1)}`).join(', ')}`],
		};
	} finally {
		await bank.close();
	}
}
