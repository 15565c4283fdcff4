// prepublishOnly: refuses `npm publish` anywhere but the Publish workflow (.github/workflows/publish.yml) running
// for a release tagged v<package.json version>, so every published version carries npm provenance and was
// tested by that run.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
const env = process.env;
const problems = [];

if (env.GITHUB_ACTIONS !== 'true') problems.push('it is not running in GitHub Actions');
if (!(env.GITHUB_WORKFLOW_REF ?? '').includes('/.github/workflows/publish.yml@')) {
	problems.push('it is not the Publish workflow (.github/workflows/publish.yml)');
}
if (env.GITHUB_EVENT_NAME !== 'release') problems.push('it was not started by a published release');
if (env.GITHUB_REF !== `refs/tags/v${pkg.version}`) {
	problems.push(`the ref is "${env.GITHUB_REF ?? ''}", not the tag refs/tags/v${pkg.version} of package.json's version`);
}
if (env.npm_config_provenance !== 'true') {
	problems.push('npm publish was not given --provenance');
}
if (String(pkg.author?.email ?? '').endsWith('.example')) {
	problems.push(`package.json's author e-mail (${pkg.author.email}) is a placeholder: put the maintainers' real address`);
}

if (problems.length > 0) {
	console.error(`Refusing to publish ${pkg.name}@${pkg.version}:\n- ${problems.join('\n- ')}`);
	console.error('Publish by creating a GitHub release tagged v<version>; the Publish workflow does the rest.');
	process.exit(1);
}
