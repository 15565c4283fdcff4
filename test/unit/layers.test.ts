/**
 * The import rules of docs/architecture.md ("Layers and what each may import"), checked on the source text:
 * a shortcut across layers fails here instead of surviving review.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(__dirname, '..', '..');

function sourceFiles(folder: string): string[] {
	return readdirSync(join(root, folder)).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Each import of a file: bare module names as written, relative ones as paths from the repository root. */
function importsOf(file: string): string[] {
	const text = readFileSync(join(root, file), 'utf8');
	return [...text.matchAll(/(?:\bfrom\s+|^import\s+|\brequire\(|\bimport\()'([^']+)'/gm)].map(([, spec]) =>
		spec.startsWith('.') ? relative(root, resolve(root, dirname(file), spec)) : spec,
	);
}

const violations = (folders: string[], allowed: (imported: string, file: string) => boolean) =>
	folders.flatMap(sourceFiles).flatMap((file) =>
		importsOf(file)
			.filter((imported) => !allowed(imported, file))
			.map((imported) => `${file} imports ${imported}`),
	);
const SHIPPED_MODULES = ['n8n-workflow', 'zod', 'node:crypto'];

test('shipped code loads only n8n-workflow, zod and node:crypto besides its own files', () => {
	expect(
		violations(['nodes', 'credentials'], (imported) =>
			SHIPPED_MODULES.includes(imported) || imported.startsWith('nodes/') || imported.startsWith('credentials/'),
		),
	).toEqual([]);
});

/** The node folders: every folder of nodes/ but the shared core, each holding its node's shell. */
const NODE_FOLDERS = readdirSync(join(root, 'nodes')).filter((name) => name !== 'common' && statSync(join(root, 'nodes', name)).isDirectory());

test('each node folder holds its node shell, and the shared core holds none', () => {
	expect(NODE_FOLDERS.sort()).toEqual(['Baas', 'BaasDashboard', 'BaasPollTrigger', 'BaasTrigger']);
	for (const folder of NODE_FOLDERS) expect(sourceFiles(`nodes/${folder}`)).toContain(`nodes/${folder}/${folder}.node.ts`);
	expect(sourceFiles('nodes/common').filter((file) => file.endsWith('.node.ts'))).toEqual([]);
});

test('each node folder imports only the shared core and its own files, never another node\'s folder', () => {
	expect(
		NODE_FOLDERS.flatMap((folder) =>
			violations([`nodes/${folder}`], (imported) => !imported.startsWith('nodes/') || imported.startsWith('nodes/common/') || imported.startsWith(`nodes/${folder}/`)),
		),
	).toEqual([]);
});

test('the shared core imports no node folder', () => {
	expect(violations(['nodes/common'], (imported) => !imported.startsWith('nodes/') || imported.startsWith('nodes/common/'))).toEqual([]);
});

test('the transport never reaches up into operations, pickers or the node shells', () => {
	expect(
		violations(['nodes/common/transport'], (imported) => !/^nodes\/common\/(actions|methods)\//.test(imported) && !/\.node$/.test(imported)),
	).toEqual([]);
});

test('only the transport and its callers talk HTTP: no operation builds a URL from a route path', () => {
	expect(
		violations(['nodes/common/actions', 'nodes/common/methods'], (imported) => !/^nodes\/common\/transport\/routes$/.test(imported)),
	).toEqual([]);
});

test('the sandbox bank is not a client: it imports nothing from the nodes or credentials', () => {
	expect(violations(['sandbox'], (imported) => !/^(nodes|credentials)\//.test(imported))).toEqual([]);
});

test('the credentials use only the sign-in parts of the transport (token exchange, session)', () => {
	expect(
		violations(['credentials'], (imported) => !imported.startsWith('nodes/') || ['nodes/common/transport/tokenExchange', 'nodes/common/transport/session'].includes(imported)),
	).toEqual([]);
});

test("the Poll Trigger's core is pure: it imports its own files only (n8n-workflow for types), so no request, clock or log", () => {
	const core = 'nodes/BaasPollTrigger/core';
	const valueImports = sourceFiles(core).flatMap((file) =>
		[...readFileSync(join(root, file), 'utf8').matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)]
			.map(([, spec]) => (spec.startsWith('.') ? relative(root, resolve(root, dirname(file), spec)) : spec))
			.filter((imported) => !imported.startsWith(`${core}/`))
			.map((imported) => `${file} imports ${imported}`),
	);
	expect(valueImports).toEqual([]);
	expect(violations([core], (imported) => imported.startsWith(`${core}/`) || imported === 'n8n-workflow')).toEqual([]);
	// No clock, timer or process in it either: time comes from the bank's records (and options.nowMs, passed in).
	const clockUse = sourceFiles(core).filter((file) => /\b(Date\.now|new Date\(|setTimeout|setInterval|process\.)/.test(readFileSync(join(root, file), 'utf8')));
	expect(clockUse).toEqual([]);
});
