import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import type { StandInModel } from '../../../sandbox/model';
import { startStandInModel } from '../../../sandbox/model';
import { aiCredentials } from '../../../scripts/n8n/aiCredentials';
import { createApiKey, ownerSession } from '../../../scripts/n8n/api';
import type { DataTableClient } from '../../../scripts/n8n/dataTables';
import { dataTables } from '../../../scripts/n8n/dataTables';
import { readOnlySandboxCredentials, sandboxCredentials } from '../../../scripts/n8n/credentials';
import type { ExampleWorkflow } from '../../../scripts/n8n/examples';
import { activateWorkflow, importWorkflows, pointExample, readExample } from '../../../scripts/n8n/examples';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { RunningN8n } from '../../../scripts/n8n/instance';
import { startN8n } from '../../../scripts/n8n/instance';
import { n8nCli } from '../../../scripts/n8n/instance';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { CACHE_DIR } from '../../../scripts/n8n/paths';
import { teardown } from './teardown';

export interface AiStack {
	n8n: RunningN8n;
	bank: SandboxHandle;
	model: StandInModel;
	cookie: string;
	apiKey: string;
	/** n8n's data tables, and the ids of the examples' tables (the treasury assistant's BaaS payment decisions). */
	tables: DataTableClient;
	tableIds: Record<string, string>;
	treasury: ExampleWorkflow;
	mcp: ExampleWorkflow;
	/** Test-only variants that wire Send money where the examples never do, to see the node refuse it. */
	unsafe: { treasury: ExampleWorkflow; mcp: ExampleWorkflow };
	stop(): Promise<void>;
}

/** A copy of an example under another id, its trigger at another webhook, with `change` applied. */
function variant(workflow: ExampleWorkflow, id: string, change: (copy: ExampleWorkflow) => void): ExampleWorkflow {
	const copy = JSON.parse(JSON.stringify(workflow)) as ExampleWorkflow;
	copy.id = id;
	copy.name = `e2e: ${workflow.name}, ${id}`;
	for (const node of copy.nodes) if (node.webhookId) node.webhookId = `${String(node.webhookId).slice(0, -12)}${id.slice(-12).toLowerCase().replace(/[^0-9a-f]/g, '0')}`;
	change(copy);
	return copy;
}

/** The treasury assistant with Send money wired straight to the agent, no human review between them. */
function treasuryWithoutReview(treasury: ExampleWorkflow): ExampleWorkflow {
	return variant(treasury, 'E2eTreasuryDirect', (copy) => {
		copy.nodes = copy.nodes.filter((node) => node.name !== 'Approve payment');
		const connections = copy.connections as Record<string, Record<string, Array<Array<{ node: string; type: string; index: number }>>>>;
		delete connections['Approve payment'];
		connections['Send money'] = { ai_tool: [[{ node: 'Treasury Agent', type: 'ai_tool', index: 0 }]] };
	});
}

/** The MCP server with the treasury assistant's Send money attached, under its own path. */
function mcpWithSendMoney(mcp: ExampleWorkflow, treasury: ExampleWorkflow): ExampleWorkflow {
	return variant(mcp, 'E2eMcpWithSend01', (copy) => {
		const trigger = copy.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
		trigger.parameters.path = 'baas-with-send-money';
		copy.nodes.push(treasury.nodes.find((node) => node.name === 'Send money')!);
		(copy.connections as Record<string, unknown>)['Send money'] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	});
}

const log = (line: string) => process.stdout.write(`[e2e ai] ${line}\n`);

/**
 * One n8n of the line with the two AI examples as shipped (the treasury assistant and the MCP server), active, as
 * `npm run dev` has them: the sandbox bank, the sandbox's stand-in model behind n8n's OpenAI credential, and the
 * MCP example's bearer token.
 */
export async function startAiStack(line: N8nLine, port: number): Promise<AiStack> {
	const { started, stop } = teardown(log);
	try {
		const install = await ensureN8n(line, log);
		const tarball = await packPackage(log);
		const userFolder = path.join(CACHE_DIR, 'e2e', `ai-n8n-${line.version}`);
		rmSync(userFolder, { recursive: true, force: true });
		mkdirSync(userFolder, { recursive: true });
		await installCommunityPackage(userFolder, tarball, install.runtime, log);
		const bank = await startSandbox({ port: 0, interSettleDelayMs: 300 });
		started.push(() => bank.close());
		const model = await startStandInModel({ port: 0 });
		started.push(() => model.close());
		const config = { install, userFolder, port, encryptionKey: `e2e-ai-${line.version}`, portHint: 'BAAS_E2E_PORT_BASE=<another base>' };
		const credentialsFile = path.join(userFolder, 'credentials.json');
		writeFileSync(credentialsFile, JSON.stringify([...sandboxCredentials(bank), ...readOnlySandboxCredentials(bank), ...aiCredentials(model.baseUrl)], null, 2));
		await n8nCli(config, ['import:credentials', `--input=${credentialsFile}`]);
		const n8n = await startN8n(config, log);
		started.push(() => n8n.stop());
		const cookie = await ownerSession(n8n.url);
		const apiKey = await createApiKey(n8n.url, cookie);
		// The tables first, as `npm run dev` makes them: the treasury assistant records its decisions in one.
		const tables = dataTables(n8n.url, cookie);
		const { ids: tableIds } = await tables.ensure();
		const treasury = pointExample(readExample('treasury-assistant.json'), bank.url, tableIds);
		const mcp = readExample('mcp-server.json');
		const unsafe = { treasury: treasuryWithoutReview(treasury), mcp: mcpWithSendMoney(mcp, treasury) };
		const workflows = [treasury, mcp, unsafe.treasury, unsafe.mcp];
		await importWorkflows(config, workflows.map((workflow) => pointExample(workflow, bank.url, tableIds)));
		for (const workflow of workflows) await activateWorkflow(n8n.url, cookie, workflow.id);
		log('imported and activated the treasury assistant and the MCP server examples, and their variants with Send money wired unsafely');
		return { n8n, bank, model, cookie, apiKey, tables, tableIds, treasury, mcp, unsafe, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
