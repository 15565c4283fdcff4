/**
 * `npm run fuzz:check`: the Poll Trigger's check for records written late (core/check.ts) fuzzed directly against a
 * list with the ground truth at hand (test/support/checkFuzz.ts). Prints the rate, the cases wrong by kind and the
 * first seeds of each.
 *
 *   --cases N        cases to run (default 10,000)
 *   --from SEED      first seed (default 1)
 *   --explain SEED   one case, page by page and poll by poll, and what was found wrong
 */
import { generateCheckCase, runCheckCase } from '../test/support/checkFuzz';

function option(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i < 0 ? undefined : process.argv[i + 1];
}

/** A violation's kind: its words with the references and numbers taken out. */
const kindOf = (violation: string) => violation.replace(/^poll \d+: /, '').replace(/\b(h|old|new|late)\d+(-\d+)?/g, '…').replace(/-?\d+/g, 'N');

function main(): void {
	const explain = option('explain');
	if (explain !== undefined) {
		const c = generateCheckCase(Number(explain));
		console.log(JSON.stringify(c));
		const run = runCheckCase(c, (line) => console.log(line));
		for (const v of run.violations) console.log(v);
		console.log(`${run.violations.length} violation(s); ${run.polls} polls, ${run.requests} requests`);
		return;
	}
	const from = Number(option('from') ?? 1);
	const cases = Number(option('cases') ?? 10_000);
	const started = Date.now();
	const kinds = new Map<string, number[]>();
	let polls = 0;
	let requests = 0;
	let wrong = 0;
	for (let seed = from; seed < from + cases; seed++) {
		const run = runCheckCase(generateCheckCase(seed));
		polls += run.polls;
		requests += run.requests;
		if (run.violations.length === 0) continue;
		wrong++;
		for (const kind of new Set(run.violations.map(kindOf))) kinds.set(kind, [...(kinds.get(kind) ?? []), seed]);
	}
	const seconds = (Date.now() - started) / 1000;
	console.log(`${cases} cases in ${seconds.toFixed(1)} s: ${Math.round((cases / seconds) * 60)} cases/min; ${polls} polls, ${requests} requests`);
	console.log(`wrong: ${wrong} (${((100 * wrong) / cases).toFixed(2)}%)`);
	for (const [kind, seeds] of [...kinds].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${seeds.length}: ${kind} (seeds ${seeds.slice(0, 8).join(', ')})`);
}

main();
