/**
 * Every operation of the BaaS node lives in the five places docs/architecture.md ("Adding an operation") names.
 * This test walks the node's own operation table, so an operation added without one of them fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { RESOURCES, resourceDescriptions, resourceSelector } from '../../nodes/common/actions/resources';
import { authenticationsFor } from '../../nodes/common/actions/selectors';
import { ROUTES, type Route } from '../../nodes/common/transport/routes';

const root = join(__dirname, '..', '..');
const actions = join(root, 'nodes', 'common', 'actions');
const read = (path: string) => readFileSync(path, 'utf8');

/** Display names and reachability of every resource and operation, from the node's own selectors. */
function selectorOptions(properties: INodeProperties[], name: string, resource?: string) {
	const found = new Map<string, { label: string; authentications: Set<string> }>();
	for (const property of properties) {
		if (property.name !== name || property.type !== 'options') continue;
		if (resource && !(property.displayOptions?.show?.resource ?? []).includes(resource)) continue;
		const authentications = (property.displayOptions?.show?.authentication as string[] | undefined) ?? [
			'apiClient',
			'dashboardUser',
		];
		for (const option of property.options as Array<{ name: string; value: string }>) {
			const entry = found.get(option.value) ?? { label: option.name, authentications: new Set<string>() };
			authentications.forEach((authentication) => entry.authentications.add(authentication));
			found.set(option.value, entry);
		}
	}
	return found;
}

/** The file itself and the modules it imports from its own resource folder (e.g. transfer/exactlyOnce.ts). */
function withLocalImports(file: string): string[] {
	const local = [...read(file).matchAll(/from '\.\/([\w.]+)'/g)].map(([, name]) => join(dirname(file), `${name}.ts`));
	return [file, ...local.filter((path) => existsSync(path))];
}

/** Modules that read form values only through the schemas of nodes/common/validation.ts. */
function checksInputs(file: string, seen = new Set<string>()): boolean {
	if (seen.has(file)) return false;
	seen.add(file);
	const imports = [...read(file).matchAll(/from '(\.{1,2}\/[\w./]+)'/g)].map(([, path]) => join(dirname(file), `${path}.ts`));
	return imports.some((path) => path.endsWith(join('common', 'validation.ts')) || (existsSync(path) && checksInputs(path, seen)));
}

const engineTitles = readdirSync(join(root, 'test', 'engine'))
	.filter((file) => file.endsWith('.test.ts'))
	.flatMap((file) =>
		[...read(join(root, 'test', 'engine', file)).matchAll(/describe\(\s*'([^']+)'/g)].map(([, title]) => ({ file, title })),
	);
/** `name` opening `title` or one of its comma-separated parts, and not the start of a longer name ("Get Many"). */
const titled = (title: string, name: string) => title.split(', ').some((part) => new RegExp(`^${name}($|[ ]?[(:—-])`).test(part));

const operationRows = read(join(root, 'docs', 'operations.md'))
	.split('\n')
	.filter((line) => line.startsWith('|'))
	.map((line) => line.split('|').map((cell) => cell.trim()));

const resources = selectorOptions([resourceSelector], 'resource');
const cases = Object.entries(RESOURCES).flatMap(([resource, operations]) => {
	const labels = selectorOptions(resourceDescriptions, 'operation', resource);
	return Object.keys(operations).map((operation) => ({
		resource,
		operation,
		resourceLabel: resources.get(resource)?.label ?? resource,
		label: labels.get(operation)?.label ?? operation,
		authentications: new Set<string>(authenticationsFor(resource, operation)),
	}));
});

describe.each(cases)('$resource → $operation', ({ resource, operation, resourceLabel, label, authentications }) => {
	const file = join(actions, resource, `${operation}.operation.ts`);

	test('has its operation file, registered for its resource', async () => {
		expect(existsSync(file)).toBe(true);
		expect(RESOURCES[resource][operation]).toBe(await import(file));
		expect(authentications.size).toBeGreaterThan(0);
	});

	test('names its route in transport/routes.ts, with a path for every credential that offers it', () => {
		const named = withLocalImports(file).flatMap((path) =>
			[...read(path).matchAll(/'(\w+)'/g)].map(([, word]) => word).filter((word) => word in ROUTES),
		);
		expect(named.length).toBeGreaterThan(0);
		const paths = (ROUTES[named[0] as keyof typeof ROUTES] as Route).paths;
		if (authentications.has('apiClient')) expect(paths.api).toBeDefined();
		if (authentications.has('dashboardUser')) expect(paths.web).toBeDefined();
	});

	test('checks its form values with the schemas of validation.ts (or has no form values)', () => {
		const formValues = (RESOURCES[resource][operation].description as INodeProperties[]).filter(
			(property) => property.name !== 'options' && property.type !== 'notice',
		);
		if (formValues.length > 0) expect(checksInputs(file)).toBe(true);
	});

	test('has an engine test: describe "Resource → Operation", or "Operation" in test/engine/<resource>[-scenario].test.ts', () => {
		const found = engineTitles.some(
			({ file: testFile, title }) =>
				titled(title, `${resourceLabel} → ${label}`) || (new RegExp(`^${resource}(-[\\w-]+)?\\.test\\.ts$`).test(testFile) && titled(title, label)),
		);
		expect(found).toBe(true);
	});

	test('has its row in the Operations table of docs/operations.md', () => {
		expect(operationRows.some((cells) => cells[1] === resourceLabel && cells[2] === label)).toBe(true);
	});
});
