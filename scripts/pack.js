// Packs the package as npm would publish it and unpacks the tarball into a temporary folder, so checks look at
// exactly what ships rather than at the working tree. Shared by check-pack.js and scan-package.mjs.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, mkdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '..');

/** Calls `use({ root, dir, filename, files })` with the unpacked tarball, then removes the temporary folder. */
async function withPackedTarball(use) {
	const work = mkdtempSync(join(tmpdir(), 'n8n-nodes-baas-pack-'));
	try {
		const output = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		const packed = JSON.parse(output)[0];
		const dir = join(work, 'package');
		mkdirSync(dir);
		execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', dir, '--strip-components=1']);
		return await use({ root, dir, filename: packed.filename, files: packed.files.map((file) => file.path) });
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

module.exports = { root, withPackedTarball };
