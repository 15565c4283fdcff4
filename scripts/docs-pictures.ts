/**
 * `npm run docs:pictures`: copies the README's pictures from the screenshots the e2e suite takes on the n8n line
 * `npm run dev` starts (run `npm run test:e2e` first), so the README shows the editor as the browser tests saw it.
 */
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';

import { LINES, REPO_ROOT } from './n8n/paths';

const version = LINES['2'].version;
const pictures: Record<string, string> = {
	'editor-picker.png': `picker-baas-n8n-${version}.png`,
	'editor-picker-dashboard.png': `picker-dashboard-n8n-${version}.png`,
	'editor-transfer-create.png': `transfer-create-output-n8n-${version}.png`,
	'editor-source-accounts.png': `transfer-source-accounts-n8n-${version}.png`,
	'editor-picker-triggers.png': `picker-triggers-n8n-${version}.png`,
	'editor-collection-alert.png': `collection-alert-n8n-${version}.png`,
	'ai-treasury-review.png': `ai-treasury-n8n-${version}-review.png`,
};
let missing = 0;
for (const [picture, screenshot] of Object.entries(pictures)) {
	const from = path.join(REPO_ROOT, 'screenshots', screenshot);
	if (!existsSync(from)) {
		process.stderr.write(`missing screenshots/${screenshot}: run npm run test:e2e first\n`);
		missing++;
		continue;
	}
	copyFileSync(from, path.join(REPO_ROOT, 'docs', picture));
	process.stdout.write(`docs/${picture} ← screenshots/${screenshot}\n`);
}
process.exitCode = missing ? 1 : 0;
