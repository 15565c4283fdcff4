/**
 * How long the scrubber (nodes/common/transport/scrub.ts) takes on 1 MB texts built to make a backtracking
 * pattern slow, and on an ordinary one; the target of issue 34 (item 5) is 50 ms per 1 MB text. Also times the
 * scrubber as it was before, on 20 KB and 40 KB, to show its growth. Run: npx tsx bench/scrub.ts
 */
import { REDACTED, scrubberFor, scrubPatterns } from '../nodes/common/transport/scrub';

const SIZE = 1_000_000;
const TEXTS: Record<string, (size: number) => string> = {
	'letters (a…a)': (size) => 'a'.repeat(size),
	'schemes (a://…)': (size) => 'a://'.repeat(size / 4),
	'eyJ + letters': (size) => 'eyJ' + 'a'.repeat(size),
	'eyJ- repeated': (size) => 'eyJ-'.repeat(size / 4),
	"a secret's beginning repeated": (size) => 'ababab-'.repeat(Math.ceil(size / 7)),
	'an ordinary refusal': (size) => 'The bank refused: Invalid client credentials [41] at https://u:p@bank.example/x '.repeat(Math.ceil(size / 80)),
};
const SECRETS = ['ababab-'.repeat(40) + 'y', 'wrong-Secret-Lk42', 'eyJhbGciOi.eyJzdWIi.c2ln'];

/** The scrubber before issue 34, for the comparison. */
function formerScrubber(text: string): string {
	const known = new RegExp(SECRETS.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length).join('|'), 'g');
	return text
		.replace(known, REDACTED)
		.replace(/\bBearer\s+[^\s"',;]+/gi, `Bearer ${REDACTED}`)
		.replace(/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, REDACTED)
		.replace(/([a-z][\w+.-]*:\/\/)[^/\s@]*@/gi, '$1');
}

function medianMs(run: () => void, repetitions: number): number {
	const times: number[] = [];
	for (let i = 0; i < repetitions; i++) {
		const started = performance.now();
		run();
		times.push(performance.now() - started);
	}
	return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const scrub = scrubberFor(SECRETS);
let worst = 0;
process.stdout.write(`# scrubber, ${SIZE.toLocaleString('en')} characters per text, median of 5 (with the credential's secrets / patterns only)\n`);
for (const [name, make] of Object.entries(TEXTS)) {
	const text = make(SIZE).slice(0, SIZE);
	const withSecrets = medianMs(() => scrub(text), 5);
	const patternsOnly = medianMs(() => scrubPatterns(text), 5);
	worst = Math.max(worst, withSecrets, patternsOnly);
	process.stdout.write(`${name.padEnd(32)} ${withSecrets.toFixed(1).padStart(7)} ms ${patternsOnly.toFixed(1).padStart(7)} ms\n`);
}
process.stdout.write(`worst: ${worst.toFixed(1)} ms, target <= 50 ms: ${worst <= 50 ? 'MET' : 'NOT MET'}\n`);
process.stdout.write('\n# the former scrubber (quadratic), one run each\n');
for (const [name, make] of Object.entries(TEXTS).slice(0, 5)) {
	const figures = [20_000, 40_000].map((size) => `${(size / 1000).toFixed(0)} KB ${medianMs(() => formerScrubber(make(size)), 1).toFixed(0)} ms`);
	process.stdout.write(`${name.padEnd(32)} ${figures.join(', ')}\n`);
}
