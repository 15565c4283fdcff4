// Checks the tarball npm would publish, unpacked into a temporary folder (run after `npm run build`):
// - it ships only the built nodes and credentials, package.json, README and LICENSE;
// - every path in package.json's n8n.nodes / n8n.credentials is in it and exports the class named after the file;
// - every node has its codex JSON and light/dark icons; every node's and credential's documentation link is a
//   page under docs/ of this repository, with no #fragment (n8n appends a query string to a node's link);
// - loading every node and credential resolves nothing but n8n-workflow and what the n8n host provides
//   (zod, which n8n ships as n8n-workflow's peer, and Node's built-in modules).
const Module = require('node:module');
const { existsSync, readFileSync } = require('node:fs');
const { basename, join, posix, sep } = require('node:path');
const { root, withPackedTarball } = require('./pack.js');

const HOST_MODULES = new Set(['n8n-workflow', 'zod']);
const SHIPPED_FILES = ['package.json', 'README.md', 'LICENSE'];

/**
 * A documentation link must open a page of this repository's docs/ at its top: n8n appends its own query string
 * to a node's codex link (`<url>?utm_source=…`), which lands inside a #fragment, so a link holds none.
 */
function checkDocsLink(problems, what, url, pkg) {
	const repo = pkg.homepage.replace(/#.*$/, '');
	const prefix = `${repo}/blob/main/`;
	if (typeof url !== 'string' || !url.startsWith(prefix)) {
		problems.push(`${what}: documentation link ${url} is not a page of ${prefix}`);
		return;
	}
	const file = url.slice(prefix.length);
	if (/[#?]/.test(file)) problems.push(`${what}: documentation link ${url} must have no fragment or query (n8n appends its own query string)`);
	else if (!/^docs\/.+\.md$/.test(file)) problems.push(`${what}: documentation link ${url} is not a page under docs/`);
	else if (!existsSync(join(root, file))) problems.push(`${what}: documentation link ${url}: ${file} does not exist`);
}

/** Requires `file` and returns every bare module name it (or anything it loads) asked for. */
function loadRecordingImports(file, packageDir) {
	const requested = new Set();
	const original = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, ...rest) {
		const fromPackage = parent?.filename?.startsWith(packageDir + sep);
		const bare = !request.startsWith('.') && !request.startsWith('/');
		if (fromPackage && bare) {
			requested.add(request);
			// The unpacked tarball has no node_modules: host modules come from this checkout, as n8n provides them.
			if (HOST_MODULES.has(request)) return require.resolve(request, { paths: [root] });
		}
		return original.call(this, request, parent, ...rest);
	};
	try {
		return { exports: require(file), requested };
	} catch (error) {
		return { error: String(error.message).split('\n')[0], requested };
	} finally {
		Module._resolveFilename = original;
	}
}

function checkIcons(problems, what, icon, fileDir, files) {
	if (typeof icon !== 'object' || !icon.light || !icon.dark) {
		problems.push(`${what}: icon must name a light and a dark file`);
		return;
	}
	for (const variant of ['light', 'dark']) {
		const path = posix.normalize(posix.join(fileDir, icon[variant].replace(/^file:/, '')));
		if (!files.includes(path)) problems.push(`${what}: ${variant} icon ${path} is not in the tarball`);
	}
}

function checkCodex(problems, what, codexPath, nodeName, pkg, dir, files) {
	if (!files.includes(codexPath)) {
		problems.push(`${what}: codex ${codexPath} is not in the tarball`);
		return;
	}
	const codex = JSON.parse(readFileSync(join(dir, codexPath), 'utf8'));
	if (codex.node !== `${pkg.name}.${nodeName}`) problems.push(`${what}: codex "node" must be ${pkg.name}.${nodeName}`);
	if (!Array.isArray(codex.categories) || codex.categories.length === 0) problems.push(`${what}: codex has no categories`);
	const links = Object.values(codex.resources ?? {}).flat();
	if (!links.some((link) => link.url)) problems.push(`${what}: codex has no documentation link`);
	for (const { url } of links) checkDocsLink(problems, what, url, pkg);
}

function checkEntry(problems, kind, path, context) {
	const { pkg, dir, files } = context;
	if (!files.includes(path)) {
		problems.push(`${kind} ${path} is listed in package.json but is not in the tarball`);
		return;
	}
	const className = basename(path).replace(kind === 'node' ? /\.node\.js$/ : /\.credentials\.js$/, '');
	const { exports, error, requested } = loadRecordingImports(join(dir, path), dir);
	for (const request of requested) {
		if (!HOST_MODULES.has(request) && !Module.isBuiltin(request)) {
			problems.push(`${path} loads "${request}", which an n8n host does not provide`);
		}
	}
	if (error !== undefined) {
		problems.push(`${path} does not load: ${error}`);
		return;
	}
	const Class = exports[className];
	if (typeof Class !== 'function') {
		problems.push(`${path} does not export a class named ${className}`);
		return;
	}
	const instance = new Class();
	const fileDir = posix.dirname(path);
	if (kind === 'credentials') {
		if (instance.name === undefined) problems.push(`${path}: ${className} has no name`);
		checkIcons(problems, path, instance.icon, fileDir, files);
		checkDocsLink(problems, path, instance.documentationUrl, pkg);
		return;
	}
	checkIcons(problems, path, instance.description?.icon, fileDir, files);
	const codexPath = path.replace(/\.js$/, '.json');
	checkCodex(problems, path, codexPath, instance.description?.name, pkg, dir, files);
}

withPackedTarball(async ({ dir, files }) => {
	const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
	const problems = [];
	for (const path of files) {
		if (!/^dist\/(nodes|credentials)\//.test(path) && !SHIPPED_FILES.includes(path)) {
			problems.push(`unexpected file in the tarball: ${path}`);
		}
	}
	for (const required of SHIPPED_FILES) {
		if (!files.includes(required)) problems.push(`missing from the tarball: ${required}`);
	}
	const entries = [
		...(pkg.n8n?.nodes ?? []).map((path) => ['node', path]),
		...(pkg.n8n?.credentials ?? []).map((path) => ['credentials', path]),
	];
	if (!entries.some(([kind]) => kind === 'node')) problems.push('package.json lists no n8n.nodes');
	for (const [kind, path] of entries) checkEntry(problems, kind, path, { pkg, dir, files });

	if (problems.length > 0) {
		console.error(`npm pack: ${problems.length} problem(s)\n${problems.join('\n')}`);
		process.exitCode = 1;
	} else {
		console.log(`npm pack: ${files.length} files; ${entries.length} nodes and credentials load, with codex and icons`);
	}
}).catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
