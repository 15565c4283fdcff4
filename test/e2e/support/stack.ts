import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import { createApiKey, ownerSession } from '../../../scripts/n8n/api';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
import { activateWorkflow, importWorkflows, readExample } from '../../../scripts/n8n/examples';
import type { N8nInstall } from '../../../scripts/n8n/install';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { InstanceConfig, RunningN8n } from '../../../scripts/n8n/instance';
import { n8nCli, startN8n } from '../../../scripts/n8n/instance';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { CACHE_DIR } from '../../../scripts/n8n/paths';
import type { Receiver } from './receiver';
import { startReceiver } from './receiver';
import { teardown } from './teardown';
import type { ExampleName, PreparedWorkflows } from './workflows';
import { EXAMPLES, loadExample, prepareWorkflows } from './workflows';

export interface Stack {
	line: N8nLine;
	install: N8nInstall;
	config: InstanceConfig;
	n8n: RunningN8n;
	bank: SandboxHandle;
	receiver: Receiver;
	cookie: string;
	apiKey: string;
	workflows: PreparedWorkflows;
	/** Ids of the examples imported exactly as shipped (inactive). */
	shipped: Record<ExampleName, string>;
	stop(): Promise<void>;
}

const log = (line: string) => process.stdout.write(`[e2e] ${line}\n`);

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * Everything one n8n line needs, started from scratch: n8n (installed once into .cache/), this package packed
 * and installed the community way, the sandbox bank, a receiver standing in for sheets and chat, credentials
 * and example workflows imported and activated, the owner set up and an API key. `stop()` ends all of it.
 */
export async function startStack(line: N8nLine, port: number): Promise<Stack> {
	const { started, stop } = teardown(log);
	try {
		const install = await ensureN8n(line, log);
		const tarball = await packPackage(log);
		// Named by its port as well: two stacks of one line that run at once (an e2e file and the queue suite's
		// baseline, or e2e files in parallel workers) must not share a folder, and no two running stacks share a port.
		const userFolder = path.join(CACHE_DIR, 'e2e', `n8n-${line.version}-${port}`);
		rmSync(userFolder, { recursive: true, force: true });
		mkdirSync(userFolder, { recursive: true });
		await installCommunityPackage(userFolder, tarball, install.runtime, log);

		const bank = await startSandbox({ port: 0, interSettleDelayMs: 300 });
		started.push(() => bank.close());
		const receiver = await startReceiver();
		started.push(() => receiver.close());

		const config: InstanceConfig = { install, userFolder, port, encryptionKey: `e2e-key-${line.version}`, portHint: 'BAAS_E2E_PORT_BASE=<another base>' };
		const credentialsFile = path.join(userFolder, 'credentials.json');
		writeFileSync(credentialsFile, JSON.stringify(sandboxCredentials(bank), null, 2));
		await n8nCli(config, ['import:credentials', `--input=${credentialsFile}`]);

		// Two CLI calls in all: each starts n8n's CLI, about 10 s of CPU (minutes on a busy 2-core machine). The e2e
		// variants are then activated through the REST route the editor's toggle uses, once n8n runs.
		const workflows = prepareWorkflows(receiver.url);
		const variants = Object.values(workflows);
		const asShipped = Object.values(EXAMPLES).map((file) => readExample(file));
		await importWorkflows(config, [...variants.map(({ json }) => ({ ...json, name: String(json.name) })), ...asShipped]);

		const n8n = await startN8n(config, log);
		started.push(() => n8n.stop());
		const cookie = await ownerSession(n8n.url);
		for (const workflow of variants) await activateWorkflow(n8n.url, cookie, workflow.id);
		log(`imported the ${asShipped.length} examples as shipped, and activated their e2e variants`);
		const triggerUrl = `${n8n.url}/${workflows.collection.webhookPath}`;
		await waitUntil('the trigger to register its URL with the bank', () =>
			bank.bank.webhooks.some((webhook) => webhook.url === triggerUrl),
		);
		const apiKey = await createApiKey(n8n.url, cookie);
		const shipped = Object.fromEntries(
			(Object.keys(EXAMPLES) as ExampleName[]).map((name) => [name, loadExample(name).id]),
		) as Record<ExampleName, string>;
		return { line, install, config, n8n, bank, receiver, cookie, apiKey, workflows, shipped, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
