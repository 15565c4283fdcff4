/** The shipped examples: which need an account (and say so), and how they are pointed at a run's tables and bank. */
import type { ExampleWorkflow } from '../../scripts/n8n/examples';
import { exampleFiles, pointExample, readExample, SHIPPED_BANK_URL } from '../../scripts/n8n/examples';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { STAND_IN_MODEL_CREDENTIAL } from '../../scripts/n8n/aiCredentials';
import { EXAMPLE_TABLES } from '../../scripts/n8n/dataTables';
import { ACTIVE_IN_DEV, examplesBankNote } from '../../scripts/n8n/devExamples';
import { EXAMPLES_DIR } from '../../scripts/n8n/examples';
import { PAYOUT_SOURCES, payoutCodeNodes } from '../../scripts/n8n/payoutCode';

const examples = exampleFiles().map((file) => ({ file, workflow: readExample(file) }));
/** n8n's own nodes that need no account anywhere (an HTTP Request here only ever posts to the sandbox bank). */
const NEED_NO_ACCOUNT = new Set(
	['manualTrigger', 'scheduleTrigger', 'dataTable', 'httpRequest', 'code', 'if', 'merge', 'formTrigger', 'form', 'extractFromFile', 'convertToFile', 'removeDuplicates'].map(
		(name) => `n8n-nodes-base.${name}`,
	),
);
/** n8n's AI nodes that need no account; its OpenAI Chat Model needs none while it talks to the sandbox's stand-in model. */
const AI_NEEDING_NO_ACCOUNT = new Set(['chatTrigger', 'agent', 'memoryBufferWindow', 'chat', 'chatHitlTool', 'mcpTrigger'].map((name) => `@n8n/n8n-nodes-langchain.${name}`));
const onStandInModel = (node: ExampleWorkflow['nodes'][number]) =>
	node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi' && (node.credentials as { openAiApi?: { id: string } } | undefined)?.openAiApi?.id === STAND_IN_MODEL_CREDENTIAL.id;
const needingAccounts = (workflow: ExampleWorkflow) =>
	workflow.nodes
		.filter((node) => !node.type.startsWith('n8n-nodes-baas.') && !NEED_NO_ACCOUNT.has(node.type) && !AI_NEEDING_NO_ACCOUNT.has(node.type) && !onStandInModel(node))
		.map((node) => node.type);
const tableIds = Object.fromEntries(Object.keys(EXAMPLE_TABLES).map((name, i) => [name, `table${i}`]));
/** Columns n8n gives every data table row besides its own. */
const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];
/** The steps every payout example shares, from its rows read to their outcomes described. */
const SHARED_PAYOUT_STEPS = ['Check Rows', 'Ready to Send?', 'Check Beneficiary Name', 'Send Payout', 'Every Row', 'Describe Outcome'];
const payoutExamples = Object.keys(PAYOUT_SOURCES).map((file) => ({ file, workflow: readExample(file) }));

describe('examples', () => {
	it.each(examples)('$file says in its name and description whether it needs an account beyond the sandbox', ({ workflow }) => {
		const description = String((workflow.meta as { description?: string }).description);
		if (needingAccounts(workflow).length > 0) {
			expect(workflow.name).toMatch(/needs .*accounts?$/);
			expect(description).toMatch(/^Needs (a|an) /);
		} else {
			expect(`${workflow.name} ${description}`).toMatch(/[Nn]eeds (no account|nothing but)|no public URL|Needs only/);
		}
	});

	it('the no-account twins of the Slack and Google Sheets examples need no account', () => {
		for (const file of ['collection-alert.json', 'daily-report.json', 'payouts-from-table.json', 'payouts-from-file.json']) {
			expect({ file, foreign: needingAccounts(readExample(file)) }).toEqual({ file, foreign: [] });
		}
	});

	it.each(examples)('$file reads and writes only columns its data tables have', ({ workflow }) => {
		for (const node of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.dataTable')) {
			const table = String((node.parameters.dataTableId as { cachedResultName: string }).cachedResultName);
			const columns = EXAMPLE_TABLES[table];
			expect({ node: node.name, table, known: columns !== undefined }).toEqual({ node: node.name, table, known: true });
			const written = Object.keys((node.parameters.columns as { value?: object } | undefined)?.value ?? {});
			const filtered = ((node.parameters.filters as { conditions?: Array<{ keyName: string }> } | undefined)?.conditions ?? []).map((c) => c.keyName);
			expect([...written, ...filtered].filter((column) => !columns.includes(column) && !SYSTEM_COLUMNS.includes(column))).toEqual([]);
		}
	});

	it.each(examples)('$file, pointed at a run, names its tables by id and that run\'s bank only', ({ workflow }) => {
		const pointed = pointExample(workflow, 'http://127.0.0.1:52010', tableIds);
		const text = JSON.stringify(pointed);
		expect(text).not.toContain(SHIPPED_BANK_URL);
		for (const node of pointed.nodes.filter((n) => n.type === 'n8n-nodes-base.dataTable')) {
			const locator = node.parameters.dataTableId as { value: string; cachedResultName: string };
			expect(locator.value).toBe(tableIds[locator.cachedResultName]);
		}
		// Everything but those values is as shipped.
		expect(pointed.nodes.map((n) => n.name)).toEqual(workflow.nodes.map((n) => n.name));
		expect(pointed.connections).toEqual(workflow.connections);
	});

	it.each(payoutExamples)('$file holds the Code of scripts/n8n/payoutCode.ts (after a change there: npx tsx scripts/n8n/payoutCode.ts)', ({ file, workflow }) => {
		const code = payoutCodeNodes(PAYOUT_SOURCES[file]);
		const held = Object.fromEntries(workflow.nodes.filter((n) => code[n.name] !== undefined).map((n) => [n.name, n.parameters.jsCode]));
		expect(held).toEqual(code);
	});

	it('the payout examples share every step between reading the rows and writing their outcomes', () => {
		const steps = ({ workflow }: (typeof payoutExamples)[number]) =>
			SHARED_PAYOUT_STEPS.map((name) => {
				const node = workflow.nodes.find((n) => n.name === name);
				if (!node) return { name, missing: true };
				const { jsCode: _code, ...parameters } = node.parameters;
				return { name, type: node.type, typeVersion: node.typeVersion, onError: node.onError, credentials: node.credentials, parameters };
			});
		const links = ({ workflow }: (typeof payoutExamples)[number]) =>
			// Where Describe Outcome leads is each example's own (a table, a file, a sheet).
			Object.fromEntries(Object.entries(workflow.connections as Record<string, unknown>).filter(([from]) => SHARED_PAYOUT_STEPS.slice(0, -1).includes(from)));
		const [first, ...others] = payoutExamples;
		for (const other of others) {
			expect({ file: other.file, steps: steps(other) }).toEqual({ file: other.file, steps: steps(first) });
			expect({ file: other.file, links: links(other) }).toEqual({ file: other.file, links: links(first) });
		}
	});

	it.each(examples)('examples/README.md lists $file, saying whether npm run dev publishes it', ({ file, workflow }) => {
		const readme = readFileSync(path.join(EXAMPLES_DIR, 'README.md'), 'utf8');
		const row = readme.split('\n').find((line) => line.startsWith(`| \`${file}\``));
		expect(row).toBeDefined();
		expect({ file, published: /published by `npm run dev`/.test(row!) }).toEqual({ file, published: ACTIVE_IN_DEV.includes(workflow.id) });
	});

	it('posts chat messages to the run\'s bank, and refuses a table that was not created', () => {
		const alert = readExample('collection-alert.json');
		const chat = pointExample(alert, 'http://127.0.0.1:52010', tableIds).nodes.find((n) => n.name === 'Post to Chat')!;
		expect(chat.parameters.url).toBe('http://127.0.0.1:52010/__sandbox/chat');
		expect(() => pointExample(alert, 'http://127.0.0.1:52010', {})).toThrow(/data table "BaaS collections", which was not created/);
	});

	it('npm run dev says when the examples post to another bank than this run\'s, or predate the tables', () => {
		const folder = mkdtempSync(path.join(os.tmpdir(), 'baas-dev-'));
		expect(examplesBankNote(folder, 'http://127.0.0.1:4010')).toMatch(/predates the no-account examples: `npm run dev -- --reset`/);
		writeFileSync(path.join(folder, 'examples-bank-url.txt'), 'http://127.0.0.1:4010');
		expect(examplesBankNote(folder, 'http://127.0.0.1:4010')).toBeUndefined();
		expect(examplesBankNote(folder, 'http://127.0.0.1:52010')).toMatch(/post chat messages to http:\/\/127\.0\.0\.1:4010\/__sandbox\/chat .* run with --bank-port 4010, or --reset/);
	});
});
