import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import type { StandInModel } from '../../../sandbox/model';
import { startStandInModel } from '../../../sandbox/model';
import { aiCredentials } from '../../../scripts/n8n/aiCredentials';
import { createApiKey, ownerSession } from '../../../scripts/n8n/api';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
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
	treasury: ExampleWorkflow;
	mcp: ExampleWorkflow;
	stop(): Promise<void>;
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
		writeFileSync(credentialsFile, JSON.stringify([...sandboxCredentials(bank), ...aiCredentials(model.baseUrl)], null, 2));
		await n8nCli(config, ['import:credentials', `--input=${credentialsFile}`]);
		const treasury = readExample('treasury-assistant.json');
		const mcp = readExample('mcp-server.json');
		await importWorkflows(config, [treasury, mcp].map((workflow) => pointExample(workflow, bank.url, {})));
		const n8n = await startN8n(config, log);
		started.push(() => n8n.stop());
		const cookie = await ownerSession(n8n.url);
		const apiKey = await createApiKey(n8n.url, cookie);
		for (const workflow of [treasury, mcp]) await activateWorkflow(n8n.url, cookie, workflow.id);
		log('imported and activated the treasury assistant and the MCP server examples');
		return { n8n, bank, model, cookie, apiKey, treasury, mcp, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
