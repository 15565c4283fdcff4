// Runs the static analyser of n8n's verification (@n8n/scan-community-package) the way n8n runs it on a
// published version: over the sources it lints (package.json, nodes/, credentials/) and over the packed
// tarball, unpacked into a temporary folder. Its CLI only takes published names, so this calls the analyser
// module directly. Run after `npm run build`; exits non-zero on any finding.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { root, withPackedTarball } = require('./pack.js');
const scannerDir = dirname(require.resolve('@n8n/scan-community-package/package.json'));

await withPackedTarball(async ({ dir, filename }) => {
	// The analyser makes a temporary folder as it loads and never removes it: keep it inside ours.
	process.env.TMPDIR = dirname(dir);
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		pathToFileURL(join(scannerDir, 'scanner', 'scanner.mjs')).href
	);
	const legs = [
		['sources', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
		[`tarball ${filename}`, await analyzePackage(dir, ['**/*.js', 'package.json'])],
	];
	for (const [leg, result] of legs) {
		if (result.passed) {
			console.log(`scan-community-package, ${leg}: 0 findings`);
		} else {
			console.error(`scan-community-package, ${leg}: ${result.message}\n${result.details ?? ''}`);
			process.exitCode = 1;
		}
	}
});
