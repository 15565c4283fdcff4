/**
 * Long e2e files first, so parallel workers end together (jest hands the next file to whichever worker is free).
 * A fresh clone has no jest cache of file times, so the order comes from the seconds measured per file below
 * (n8n 1.123.81 and 2.41.1, two workers, on the 2-core CI machine, 2026-11-26; the examples files estimated, spend-policy from its 32-56 s on a busy shared machine, doubled); a file not listed takes its time from jest's
 * cache of the last run, else DEFAULT_SECONDS. Other projects keep jest's own order.
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const MEASURED_SECONDS = {
	'n8n-1.e2e.test.ts': 687,
	'n8n-2.e2e.test.ts': 663,
	'polling-durable-n8n-2.e2e.test.ts': 546,
	'polling-n8n-2.e2e.test.ts': 501,
	'polling-n8n-1.e2e.test.ts': 426,
	'url-change-n8n-2.e2e.test.ts': 395,
	'url-change-n8n-1.e2e.test.ts': 274,
	'ai-n8n-2.e2e.test.ts': 171,
	'examples-n8n-2.e2e.test.ts': 150,
	'examples-n8n-1.e2e.test.ts': 140,
	'spend-policy-n8n-2.e2e.test.ts': 120,
	'instances.e2e.test.ts': 46,
};
const DEFAULT_SECONDS = 150;

class LongestFirst extends Sequencer {
	sort(tests) {
		const ordered = super.sort(tests);
		const seconds = (test) => {
			if (!test.path.endsWith('.e2e.test.ts')) return 0;
			const measured = MEASURED_SECONDS[path.basename(test.path)];
			if (measured !== undefined) return measured;
			return test.duration != null ? test.duration / 1000 : DEFAULT_SECONDS;
		};
		return ordered
			.map((test, index) => ({ test, index, seconds: seconds(test) }))
			.sort((a, b) => b.seconds - a.seconds || a.index - b.index)
			.map(({ test }) => test);
	}
}

module.exports = LongestFirst;
