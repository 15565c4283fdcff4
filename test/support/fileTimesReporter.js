/**
 * Prints, when a run ends, each test file's time and when it started after the run began (so parallel workers show
 * how they overlapped), longest first, the SHOWN longest of them. jest.config.js adds it where BAAS_FILE_TIMES is set
 * (.ci/run; scripts/test-e2e.sh and scripts/queue/test-queue.sh always), so every run shows where its time went.
 */
const path = require('node:path');

const SHOWN = 15;

class FileTimesReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
		this.files = [];
	}

	onRunStart() {
		this.startedAt = Date.now();
	}

	onTestResult(test, result) {
		const { start, end } = result.perfStats;
		const status = result.numFailingTests > 0 || result.testExecError ? 'FAIL' : 'pass';
		this.files.push({ file: path.relative(this.rootDir, test.path), seconds: (end - start) / 1000, from: (start - this.startedAt) / 1000, status });
	}

	onRunComplete() {
		if (this.files.length === 0) return;
		const wall = (Date.now() - this.startedAt) / 1000;
		const sorted = [...this.files].sort((a, b) => b.seconds - a.seconds);
		const lines = sorted
			.slice(0, SHOWN)
			.map(({ file, seconds, from, status }) => `  ${status}  ${seconds.toFixed(0).padStart(5)} s  (from ${from.toFixed(0).padStart(4)} s)  ${file}`);
		if (sorted.length > SHOWN) lines.push(`  … ${sorted.length - SHOWN} more files, each ${sorted[SHOWN].seconds.toFixed(1)} s or less`);
		const sum = this.files.reduce((total, { seconds }) => total + seconds, 0);
		process.stdout.write(`\nfile times: ${this.files.length} files, ${sum.toFixed(0)} s of file time in ${wall.toFixed(0)} s of wall time\n${lines.join('\n')}\n`);
	}
}

module.exports = FileTimesReporter;
