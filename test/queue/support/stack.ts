import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import { DEFAULT_RETRY } from '../../../sandbox/runtime/webhooks';
import { createApiKey, ownerSession } from '../../../scripts/n8n/api';
import { MCP_TOKEN_CREDENTIAL, SANDBOX_MCP_TOKEN } from '../../../scripts/n8n/aiCredentials';
import { readOnlySandboxCredentials, sandboxCredentials } from '../../../scripts/n8n/credentials';
import type { ExampleWorkflow } from '../../../scripts/n8n/examples';
import { importWorkflows, pointExample, readExample } from '../../../scripts/n8n/examples';
import type { N8nInstall } from '../../../scripts/n8n/install';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { InstanceConfig, RunningN8n } from '../../../scripts/n8n/instance';
import { n8nCli, startN8n } from '../../../scripts/n8n/instance';
import { CACHE_DIR, LINES, PACK_DIR } from '../../../scripts/n8n/paths';
import type { RoundRobinProxy } from '../../../scripts/queue/proxy';
import { startProxy } from '../../../scripts/queue/proxy';
import { startPostgres, startRedis } from '../../../scripts/queue/services';
import { mcpWithSendMoney } from '../../e2e/support/mcpVariants';
import type { Receiver } from '../../e2e/support/receiver';
import { startReceiver } from '../../e2e/support/receiver';
import type { PreparedWorkflows } from '../../e2e/support/workflows';
import { prepareWorkflows } from '../../e2e/support/workflows';

/**
 * Ports of the queue suite (6200-6299; BAAS_QUEUE_PORT_BASE moves them all). n8n's other listeners (task broker)
 * get free ports from startN8n.
 */
const BASE = Number(process.env.BAAS_QUEUE_PORT_BASE ?? 6200);
export const PORTS = {
	postgres: BASE + 1,
	redis: BASE + 2,
	main: BASE + 10,
	workers: [BASE + 11, BASE + 12],
	webhooks: [BASE + 13, BASE + 14],
	proxy: BASE + 20,
	single: BASE + 30,
};

export interface QueueProcess {
	name: string;
	config: InstanceConfig;
	running: RunningN8n;
}

export interface QueueStack {
	install: N8nInstall;
	bank: SandboxHandle;
	receiver: Receiver;
	proxy: RoundRobinProxy;
	main: QueueProcess;
	workers: QueueProcess[];
	webhooks: QueueProcess[];
	apiKey: string;
	workflows: PreparedWorkflows;
	/** The trigger's production URL, as the bank knows it (through the proxy). */
	triggerUrl: string;
	/** The MCP server example as shipped, and a copy with Send money and Webhook → Create wired to it (credentials not read-only). */
	mcp: { example: ExampleWorkflow; withSendMoney: ExampleWorkflow };
	/** Starts one more worker (after one was killed), with the same folder and ports. */
	restartWorker(index: number): Promise<void>;
	stop(): Promise<void>;
}

export const log = (line: string) => process.stdout.write(`[queue] ${line}\n`);

/**
 * Webhook → Create beside Send money, on the treasury assistant's BaaS API credential (not read-only): a change at
 * the bank that, unlike Send money, only the refusal of state changes over MCP stops.
 */
function withWebhookCreate(workflow: ExampleWorkflow): ExampleWorkflow {
	const trigger = workflow.nodes.find((node) => node.type.endsWith('.mcpTrigger'))!;
	workflow.nodes.push({
		id: '3c9b1f00-0000-4000-8000-00000000a002',
		name: 'Register webhook',
		type: 'n8n-nodes-baas.baasTool',
		typeVersion: 2,
		position: [960, 240],
		parameters: {
			descriptionType: 'manual',
			toolDescription: 'Registers a URL the bank sends collection events to.',
			resource: 'webhook',
			operation: 'create',
			url: "={{ $fromAI('url', 'The URL to register', 'string') }}",
			events: ['COLLECTION_SUCCESS'],
			options: {},
		},
		credentials: { baasApi: { id: 'BaasApiSandbox01', name: 'BaaS API (sandbox)' } },
	});
	(workflow.connections as Record<string, unknown>)['Register webhook'] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	return workflow;
}

async function waitUntil(what: string, condition: () => boolean, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

/** The packed tarball: reused when this test run already packed it (the single-process stack packs first). */
async function tarball(): Promise<string> {
	const startedAt = Date.now() - process.uptime() * 1000;
	const existing = readdirSync(PACK_DIR)
		.filter((name) => name.endsWith('.tgz'))
		.map((name) => path.join(PACK_DIR, name))
		.find((file) => statSync(file).mtimeMs > startedAt);
	return existing ?? (await packPackage(log));
}

/**
 * n8n 2.x in queue mode on loopback: Postgres and Redis of its own, main (activation, editor, public API; no
 * production webhooks), 2 workers, 2 webhook processors behind a round-robin proxy that WEBHOOK_URL names, the
 * package installed the community way in every process's folder, and the sandbox bank delivering to the proxy.
 * `stop()` ends everything it started, in reverse order, also after a failed start.
 */
export async function startQueueStack(): Promise<QueueStack> {
	const started: Array<() => Promise<void>> = [];
	const stop = async () => {
		for (const close of started.reverse()) await close().catch((error: Error) => log(`stop: ${error.message}`));
	};
	try {
		const install = await ensureN8n(LINES['2'], log);
		mkdirSync(PACK_DIR, { recursive: true });
		const packed = await tarball();
		const [postgres, redis, bank, receiver, proxy] = await Promise.all([
			startPostgres(PORTS.postgres, log),
			startRedis(PORTS.redis, log),
			// Deliveries wait for n8n's answer as long as the tests do: on a loaded machine the first answers after start-up
			// can pass the sandbox's 10 s time-out, and its retry, sent to the other webhook processor, would run the event
			// again (docs/queue-mode.md: n8n 2.41 drops a copy only at the processor that saw it). The time-out itself is
			// tested in test/sandbox/webhooks.test.ts; these tests are about where deliveries run, and how often.
			startSandbox({ port: 0, interSettleDelayMs: 300, webhookRetry: { ...DEFAULT_RETRY, timeoutMs: 240_000 } }),
			startReceiver(),
			startProxy(PORTS.proxy, PORTS.webhooks),
		]);
		started.push(postgres.stop, redis.stop, () => bank.close(), () => receiver.close(), () => proxy.close());

		const root = path.join(CACHE_DIR, 'queue');
		rmSync(root, { recursive: true, force: true });
		const folder = (name: string) => path.join(root, name);
		await installCommunityPackage(folder('main'), packed, install.runtime, log);
		const shared: NodeJS.ProcessEnv = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(PORTS.postgres),
			DB_POSTGRESDB_DATABASE: 'postgres',
			DB_POSTGRESDB_USER: 'n8n',
			DB_POSTGRESDB_PASSWORD: '',
			// The default pool (2) and connect timeout (20 s) starve under a burst on a busy 2-core machine.
			DB_POSTGRESDB_POOL_SIZE: '10',
			DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(PORTS.redis),
			WEBHOOK_URL: `${proxy.url}/`,
			// info: workers log "Worker started execution <id>", which says where each execution ran.
			N8N_LOG_LEVEL: 'info',
		};
		const configOf = (name: string, port: number, extra: Partial<InstanceConfig> = {}, env: NodeJS.ProcessEnv = {}): InstanceConfig => {
			// Every process installs the package into its own folder, as each machine of a real cluster would.
			if (name !== 'main') cpSync(path.join(folder('main'), '.n8n', 'nodes'), path.join(folder(name), '.n8n', 'nodes'), { recursive: true });
			return {
				install,
				userFolder: folder(name),
				port,
				encryptionKey: 'queue-e2e-key',
				...extra,
				extraEnv: { ...shared, ...env },
			};
		};
		const mainConfig = configOf('main', PORTS.main, {}, { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		const workerConfigs = PORTS.workers.map((port, i) =>
			configOf(`worker-${i + 1}`, port, { command: 'worker', args: ['--concurrency=5'], readyPort: port }, {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(port),
			}),
		);
		const webhookConfigs = PORTS.webhooks.map((port, i) => configOf(`webhook-${i + 1}`, port, { command: 'webhook' }));

		// Importing into Postgres also runs n8n's migrations, before any process starts.
		const credentialsFile = path.join(root, 'credentials.json');
		const bearer = { ...MCP_TOKEN_CREDENTIAL, type: 'httpBearerAuth', data: { token: SANDBOX_MCP_TOKEN } };
		writeFileSync(credentialsFile, JSON.stringify([...sandboxCredentials(bank), ...readOnlySandboxCredentials(bank), bearer], null, 2));
		await n8nCli(mainConfig, ['import:credentials', `--input=${credentialsFile}`]);
		const example = pointExample(readExample('mcp-server.json'), bank.url, {});
		const mcp = { example, withSendMoney: withWebhookCreate(mcpWithSendMoney(example, { id: 'QueueMcpSend0001', path: 'baas-with-send-money', webhookId: '3c9b1f00-cafe-4000-8000-00000000a001' })) };
		await importWorkflows(mainConfig, [mcp.example, mcp.withSendMoney]);
		for (const workflow of [mcp.example, mcp.withSendMoney]) await n8nCli(mainConfig, ['publish:workflow', `--id=${workflow.id}`]);
		const workflows = prepareWorkflows(receiver.url);
		for (const workflow of [workflows.collection, workflows.payouts]) {
			const file = path.join(root, `${workflow.id}.json`);
			writeFileSync(file, JSON.stringify(workflow.json, null, 2));
			await n8nCli(mainConfig, ['import:workflow', `--input=${file}`]);
			await n8nCli(mainConfig, ['publish:workflow', `--id=${workflow.id}`]);
		}

		const main = { name: 'main', config: mainConfig, running: await startN8n(mainConfig, log) };
		started.push(() => main.running.stop());
		const others = await Promise.all(
			[...workerConfigs, ...webhookConfigs].map(async (config) => {
				const running = await startN8n(config, log);
				started.push(() => running.stop());
				return { name: path.basename(config.userFolder), config, running };
			}),
		);
		const workers = others.slice(0, 2);
		const webhooks = others.slice(2);

		const triggerUrl = `${proxy.url}/${workflows.collection.webhookPath}`;
		await waitUntil('main to register the trigger URL with the bank', () => bank.bank.webhooks.some((hook) => hook.url === triggerUrl));
		const cookie = await ownerSession(main.running.url);
		const apiKey = await createApiKey(main.running.url, cookie);

		const restartWorker = async (index: number) => {
			const running = await startN8n(workers[index].config, log);
			started.push(() => running.stop());
			workers[index] = { ...workers[index], running };
		};
		return { install, bank, receiver, proxy, main, workers, webhooks, apiKey, workflows, triggerUrl, mcp, restartWorker, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
