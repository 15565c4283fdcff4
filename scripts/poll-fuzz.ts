/**
 * `npm run fuzz:poll`: the Poll Trigger's logic (pollOnce) against a model bank, on generated histories, checked
 * against the bank's ledger (test/support/pollFuzz). Prints the rate, histories wrong by rule and list shape, and
 * the first seeds of each rule.
 *
 *   --histories N      seeds to run (default 1000); each seed is one history per shape
 *   --from SEED        first seed (default 1)
 *   --shape S          documented | cursor | both (default both)
 *   --long             longer histories (30-150 polls, bursts of up to 400, backlogs of up to 500)
 *   --workers K        worker threads (default 1; --sweep: one per core)
 *   --sweep            1,000,000 histories (seeds × shapes; or --histories seeds), progress every 5 s; Ctrl-C
 *                      prints what was found so far
 *   --seeds A,B,…      only these seeds (say, the seeds a rule listed in an earlier run: is a change better on them?)
 *   --explain SEED     one history (first shape), poll by poll (each list's saved state after it; with
 *                      FUZZ_REQUESTS=1 in the environment, every request and its answer; with FUZZ_MIRROR=1,
 *                      every entry of each mirror, not only its first and last), and what the ledger check found
 *   FUZZ_SEEDS=N        in the environment: the first N seeds of each rule, not 5
 */
import os from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

import type { ListShape } from '../test/support/pollFuzz/bank';
import { runHistory } from '../test/support/pollFuzz/driver';
import type { Size } from '../test/support/pollFuzz/history';
import { generate } from '../test/support/pollFuzz/history';
import type { Summary } from '../test/support/pollFuzz/summary';
import { emptySummary, fuzz, merge, report } from '../test/support/pollFuzz/summary';

interface Job {
	from: number;
	count: number;
	shapes: ListShape[];
	size: Size;
}

/** Seeds a worker runs between two progress reports. */
const CHUNK = 20;

function option(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i < 0 ? undefined : process.argv[i + 1];
}

async function inWorker(job: Job): Promise<void> {
	for (let from = job.from; from < job.from + job.count; from += CHUNK) {
		const summary = await fuzz(from, Math.min(CHUNK, job.from + job.count - from), job.shapes, job.size);
		parentPort?.postMessage(summary);
	}
}

async function explain(seed: number, shape: ListShape, size: Size): Promise<void> {
	const h = generate(seed, shape, size);
	console.log(`seed ${seed} ${shape}: ${h.features.join('; ')}`);
	const outcome = await runHistory(h, (line) => console.log(`  ${line}`));
	for (const v of outcome.violations) console.log(`${v.rule}: ${v.detail}`);
	console.log(`${outcome.violations.length} violation(s); ${outcome.polls} polls (${outcome.drainPolls} in the drain of at most ${outcome.drain.bound}, owing ${outcome.drain.owed} events at its start and ${outcome.drain.left} at its end), ${outcome.events} events, ${outcome.listRequests} list and ${outcome.statusRequests} status requests`);
}

async function main(): Promise<void> {
	const sweep = process.argv.includes('--sweep');
	const size: Size = process.argv.includes('--long') ? 'long' : 'short';
	const shapeOption = option('shape') ?? 'both';
	if (!['documented', 'cursor', 'both'].includes(shapeOption)) throw new Error(`--shape documented|cursor|both, not ${shapeOption}`);
	const shapes: ListShape[] = shapeOption === 'both' ? ['documented', 'cursor'] : [shapeOption as ListShape];
	const explained = option('explain');
	if (explained !== undefined) return await explain(Number(explained), shapes[0], size);
	const started = Date.now();
	const listed = option('seeds');
	if (listed !== undefined) {
		const seeds = listed.split(',').map(Number);
		if (seeds.some((seed) => !Number.isInteger(seed) || seed < 1)) throw new Error(`--seeds takes whole numbers from 1, separated by commas, not ${listed}`);
		const summary = emptySummary();
		for (const seed of seeds) await fuzz(seed, 1, shapes, size, summary);
		return printed(summary, started);
	}
	const count = Number(option('histories') ?? (sweep ? 1_000_000 / shapes.length : 1000));
	const from = Number(option('from') ?? 1);
	const workers = Math.max(1, Number(option('workers') ?? (sweep ? os.cpus().length : 1)));
	if (workers === 1) {
		return printed(await fuzz(from, count, shapes, size), started);
	}
	const total = emptySummary();
	let lastPrinted = Date.now();
	process.once('SIGINT', () => {
		for (const line of report(total, Date.now() - started)) console.log(line);
		process.exit(total.wrong === 0 ? 0 : 1);
	});
	const share = Math.ceil(count / workers);
	await Promise.all(
		Array.from({ length: workers }, (_, w) => {
			const job: Job = { from: from + w * share, count: Math.max(0, Math.min(share, count - w * share)), shapes, size };
			return new Promise<void>((resolve, reject) => {
				// The worker runs this file as TypeScript too: tsx's loader is not inherited by worker threads.
				const worker = new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(__filename)});`, { eval: true, workerData: job });
				worker.on('message', (part: Summary) => {
					merge(total, part);
					if (Date.now() - lastPrinted > 5000) {
						lastPrinted = Date.now();
						const ms = Date.now() - started;
						const perMinute = (total.histories * 60_000) / ms;
						const left = (count * shapes.length - total.histories) / perMinute;
						console.log(`${total.histories} histories, ${Math.round(perMinute)} histories/min (${Math.round(left)} min to go), ${total.wrong} wrong (${((100 * total.wrong) / total.histories).toFixed(1)}%)`);
					}
				});
				worker.on('error', reject);
				worker.on('exit', () => resolve());
			});
		}),
	);
	printed(total, started);
}

/** Prints what a run found; the exit code says whether any history was wrong. */
function printed(summary: Summary, started: number): void {
	for (const line of report(summary, Date.now() - started)) console.log(line);
	process.exitCode = summary.wrong === 0 ? 0 : 1;
}

if (isMainThread) {
	main().catch((error: Error) => {
		console.error(error.message);
		process.exitCode = 2;
	});
} else void inWorker(workerData as Job);
