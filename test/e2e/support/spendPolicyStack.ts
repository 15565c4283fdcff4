import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import { MCP_TOKEN_CREDENTIAL, SANDBOX_MCP_TOKEN } from '../../../scripts/n8n/aiCredentials';
import { ownerSession } from '../../../scripts/n8n/api';
import { READ_ONLY_API_CREDENTIAL, READ_ONLY_DASHBOARD_CREDENTIAL, readOnlySandboxCredentials, sandboxCredentials } from '../../../scripts/n8n/credentials';
import type { ExampleNode, ExampleWorkflow } from '../../../scripts/n8n/examples';
import { activateWorkflow, importWorkflows, pointExample, readExample } from '../../../scripts/n8n/examples';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { InstanceConfig, RunningN8n } from '../../../scripts/n8n/instance';
import { n8nCli, startN8n } from '../../../scripts/n8n/instance';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { CACHE_DIR } from '../../../scripts/n8n/paths';
import { mcpWithSendMoney } from './mcpVariants';
import { teardown } from './teardown';

/** The Send money options every policy workflow here carries: the daily limit the tests spend against. */
export const DAILY_LIMIT = '1000.00';
/** The split workflow's Maximum Amount: each of its three parts passes it, their sum passes the daily limit. */
export const SPLIT_MAXIMUM = '500.00';

/** Webhook paths (POST { payments: [{ reference, amount, source, beneficiary }] }; answers with Send money's items). */
export const PATHS = { pay: 'e2e-policy-pay', split: 'e2e-policy-split', splitAtOnce: 'e2e-policy-split-at-once', readOnly: 'e2e-policy-read-only' } as const;
/** The Concurrency of the split-at-once workflow: its three parts are in flight together. */
export const AT_ONCE = 3;
/** MCP Server Trigger paths on process A: the example as shipped, and Send money wired to one with a read-only credential. */
export const MCP_PATHS = { example: 'baas', readOnlySend: 'baas-read-only-send-money' } as const;

export interface PolicyN8n {
	n8n: RunningN8n;
	cookie: string;
}

export interface PolicyStack {
	bank: SandboxHandle;
	/** Process A: the pay and split workflows, the read-only ones and the MCP servers. */
	a: PolicyN8n;
	/** Process B: its own pay workflow, against the same bank. */
	b: PolicyN8n;
	stop(): Promise<void>;
}

const log = (line: string) => process.stdout.write(`[e2e policy] ${line}\n`);

type Credentials = Record<string, { id: string; name: string }>;
const API = { baasApi: { id: 'BaasApiSandbox01', name: 'BaaS API (sandbox)' } };
const READ_ONLY = { baasApi: READ_ONLY_API_CREDENTIAL, baasDashboardApi: READ_ONLY_DASHBOARD_CREDENTIAL };

/** A webhook that splits `payments` into items and answers with what Send money made of each. */
function payWorkflow(id: string, pathName: string, options: Record<string, string | number>, credentials: Credentials): ExampleWorkflow {
	const node = (name: string, type: string, typeVersion: number, x: number, parameters: Record<string, unknown>, extra: object = {}) =>
		({ id: `${id}-${x}`, name, type, typeVersion, position: [x, 0], parameters, ...extra }) as ExampleNode;
	return {
		id,
		name: `e2e: spend policy, ${pathName}`,
		nodes: [
			node('Payments', 'n8n-nodes-base.webhook', 2, 0, { httpMethod: 'POST', path: pathName, responseMode: 'lastNode', responseData: 'allEntries', options: {} }, {
				webhookId: `5e0d0000-0000-4000-8000-${id.slice(-12).toLowerCase().replace(/[^0-9a-f]/g, '0')}`,
			}),
			node('Each Payment', 'n8n-nodes-base.splitOut', 1, 200, { fieldToSplitOut: 'body.payments', options: {} }),
			node(
				'Send money',
				'n8n-nodes-baas.baas',
				2,
				400,
				{
					resource: 'transfer',
					operation: 'create',
					referenceNumber: '={{ $json.reference }}',
					transferType: 'intra',
					amount: '={{ $json.amount }}',
					sourceAccountNumber: { __rl: true, mode: 'id', value: '={{ $json.source }}' },
					beneficiaryAccountNumber: '={{ $json.beneficiary }}',
					narration: '={{ "e2e spend policy " + $json.reference }}',
					options,
				},
				// Each item's outcome comes back in the webhook's answer, refusals included.
				{ credentials, onError: 'continueRegularOutput' },
			),
		],
		connections: {
			Payments: { main: [[{ node: 'Each Payment', type: 'main', index: 0 }]] },
			'Each Payment': { main: [[{ node: 'Send money', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Two n8n processes of the line, each with its own folder, port and database, and one sandbox bank they both pay
 * from: a spend policy that holds only within one process shows here. Process A also runs the MCP server
 * example as shipped (read-only credentials) and a copy with Send money wired to it.
 */
export async function startPolicyStack(line: N8nLine, ports: [number, number]): Promise<PolicyStack> {
	const { started, stop } = teardown(log);
	try {
		const install = await ensureN8n(line, log);
		const tarball = await packPackage(log);
		const folders = ports.map((port) => path.join(CACHE_DIR, 'e2e', `policy-n8n-${line.version}-${port}`));
		for (const folder of folders) {
			rmSync(folder, { recursive: true, force: true });
			mkdirSync(folder, { recursive: true });
		}
		// Installed once, then copied: what `npm install` would put in B's folder too, without a second install.
		await installCommunityPackage(folders[0], tarball, install.runtime, log);
		cpSync(path.join(folders[0], '.n8n', 'nodes'), path.join(folders[1], '.n8n', 'nodes'), { recursive: true });
		const bank = await startSandbox({ port: 0, interSettleDelayMs: 300 });
		started.push(() => bank.close());

		const configs: InstanceConfig[] = ports.map((port, i) => ({
			install,
			userFolder: folders[i],
			port,
			encryptionKey: `e2e-policy-${line.version}`,
			portHint: 'BAAS_E2E_PORT_BASE=<another base>',
		}));
		const mcp = readExample('mcp-server.json');
		const bearer = { ...MCP_TOKEN_CREDENTIAL, type: 'httpBearerAuth', data: { token: SANDBOX_MCP_TOKEN } };
		const setups = [
			{
				credentials: [...sandboxCredentials(bank), ...readOnlySandboxCredentials(bank), bearer],
				workflows: [
					payWorkflow('E2ePolicyPayA001', PATHS.pay, { dailyLimit: DAILY_LIMIT }, API),
					payWorkflow('E2ePolicySplit01', PATHS.split, { dailyLimit: DAILY_LIMIT, maximumAmount: SPLIT_MAXIMUM }, API),
					payWorkflow('E2ePolicySplit02', PATHS.splitAtOnce, { dailyLimit: DAILY_LIMIT, maximumAmount: SPLIT_MAXIMUM, concurrency: AT_ONCE }, API),
					payWorkflow('E2ePolicyReadOn1', PATHS.readOnly, { dailyLimit: DAILY_LIMIT }, READ_ONLY),
					pointExample(mcp, bank.url, {}),
					mcpWithSendMoney(mcp, { id: 'E2eMcpReadOnly01', path: MCP_PATHS.readOnlySend, webhookId: '5e0d0000-cafe-4000-8000-000000000002', credentials: READ_ONLY }),
				],
			},
			{ credentials: sandboxCredentials(bank), workflows: [payWorkflow('E2ePolicyPayB001', PATHS.pay, { dailyLimit: DAILY_LIMIT }, API)] },
		];
		// The CLI imports of both processes at once: each is seconds of CPU, and they touch different folders.
		await Promise.all(
			configs.map(async (config, i) => {
				const file = path.join(config.userFolder, 'credentials.json');
				writeFileSync(file, JSON.stringify(setups[i].credentials, null, 2));
				await n8nCli(config, ['import:credentials', `--input=${file}`]);
				await importWorkflows(config, setups[i].workflows);
			}),
		);
		const [a, b] = await Promise.all(
			configs.map(async (config, i) => {
				const n8n = await startN8n(config, log);
				started.push(() => n8n.stop());
				const cookie = await ownerSession(n8n.url);
				for (const workflow of setups[i].workflows) await activateWorkflow(n8n.url, cookie, workflow.id);
				return { n8n, cookie };
			}),
		);
		log(`two n8n ${line.version} processes on ${a.n8n.url} and ${b.n8n.url}, one bank on ${bank.url}`);
		return { bank, a, b, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
