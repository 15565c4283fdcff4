/**
 * Imports the example workflows into a running n8n, pointed at this run: each Data Table node gets the id of its
 * table (n8n 1.x finds a table by id only, and ids are made when a table is created), and each chat post the
 * sandbox bank's URL (its port is a flag). Used by `npm run dev` and the e2e tests of the examples.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { InstanceConfig } from './instance';
import { n8nCli } from './instance';
import type { N8nLine } from './paths';
import { REPO_ROOT } from './paths';

/** The bank the shipped examples name; `npm run dev`'s default bank. */
export const SHIPPED_BANK_URL = 'http://127.0.0.1:4010';
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

type Json = Record<string, unknown>;
export interface ExampleNode extends Json {
	name: string;
	type: string;
	parameters: Json;
}
export interface ExampleWorkflow extends Json {
	id: string;
	name: string;
	nodes: ExampleNode[];
}

export function readExample(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

export const exampleFiles = () => readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json')).sort();

/**
 * Whether an example loads on this n8n line: one built on nodes a line lacks (the treasury assistant's human
 * review of tool calls is n8n 2.x only) says so in meta.minimumN8nVersion.
 */
export function loadsOn(workflow: ExampleWorkflow, line: N8nLine): boolean {
	const minimum = (workflow.meta as { minimumN8nVersion?: string } | undefined)?.minimumN8nVersion;
	return minimum === undefined || Number(minimum.split('.')[0]) <= Number(line.version.split('.')[0]);
}

/** A copy of the example with its Data Table nodes and chat posts pointed at this run's tables and bank. */
export function pointExample(workflow: ExampleWorkflow, bankUrl: string, tableIds: Record<string, string>): ExampleWorkflow {
	const nodes = workflow.nodes.map((node) => {
		const parameters = { ...node.parameters };
		if (node.type === 'n8n-nodes-base.dataTable') {
			const locator = parameters.dataTableId as Json;
			const name = String(locator.cachedResultName);
			if (!tableIds[name]) throw new Error(`example "${workflow.name}" uses the data table "${name}", which was not created`);
			parameters.dataTableId = { ...locator, mode: 'list', value: tableIds[name] };
		}
		if (node.type === 'n8n-nodes-base.httpRequest' && typeof parameters.url === 'string' && parameters.url.startsWith(`${SHIPPED_BANK_URL}/`)) {
			parameters.url = bankUrl + parameters.url.slice(SHIPPED_BANK_URL.length);
		}
		return { ...node, parameters };
	});
	return { ...workflow, nodes };
}

/**
 * `n8n import:workflow` keeps the example's id (the REST API makes a new one on 1.x) and works beside a running
 * n8n; one call for the whole folder, since each call starts n8n's CLI (seconds).
 */
export async function importWorkflows(config: InstanceConfig, workflows: ExampleWorkflow[]): Promise<void> {
	const folder = path.join(config.userFolder, 'examples');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	for (const workflow of workflows) writeFileSync(path.join(folder, `${workflow.id}.json`), JSON.stringify(workflow, null, 2));
	await n8nCli(config, ['import:workflow', '--separate', `--input=${folder}`]);
}

/** Activates (publishes, on 2.x) an imported workflow in the running n8n: the same REST route on both lines. */
export async function activateWorkflow(url: string, cookie: string, id: string): Promise<void> {
	const headers = { cookie, 'content-type': 'application/json', 'browser-id': 'baas-examples' };
	const read = await fetch(`${url}/rest/workflows/${id}`, { headers });
	if (!read.ok) throw new Error(`reading workflow ${id}: HTTP ${read.status}`);
	const { versionId } = ((await read.json()) as { data: { versionId: string } }).data;
	const response = await fetch(`${url}/rest/workflows/${id}/activate`, { method: 'POST', headers, body: JSON.stringify({ versionId }) });
	if (!response.ok) throw new Error(`activating workflow ${id}: HTTP ${response.status} ${await response.text()}`);
}
