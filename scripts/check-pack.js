// Fails when the tarball would ship anything but the built nodes/credentials, package.json, README and LICENSE.
const { execFileSync } = require('node:child_process');

const output = execFileSync('npm', ['pack', '--dry-run', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const files = JSON.parse(output)[0].files.map((file) => file.path);
const allowed = (path) =>
	/^dist\/(nodes|credentials)\//.test(path) || ['package.json', 'README.md', 'LICENSE'].includes(path);
const stray = files.filter((path) => !allowed(path));
for (const required of ['dist/nodes/Baas/Baas.node.js', 'dist/credentials/BaasApi.credentials.js', 'README.md', 'LICENSE']) {
	if (!files.includes(required)) stray.push(`missing: ${required}`);
}
console.log(`npm pack: ${files.length} files`);
if (stray.length > 0) {
	console.error(`unexpected tarball contents:\n${stray.join('\n')}`);
	process.exit(1);
}
