/**
 * The polling example in the real n8n, against sandbox banks that deliver no webhooks (an n8n the bank cannot
 * reach): collections made at the bank must show up as executions within two poll intervals, each exactly once.
 * Two banks in the same n8n at once, each with its own credential and its own copy of the example: one serving
 * the contract's documented list fields (page numbers), one whose items carry ids (cursors), issue 26. Their
 * scenarios run side by side, so both shapes cost the wall time of one.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { ListShape, SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import type { Execution } from '../../../scripts/n8n/api';
import { createApiKey, listExecutions, nodeOutput, ownerSession } from '../../../scripts/n8n/api';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { RunningN8n } from '../../../scripts/n8n/instance';
import { n8nCli, startN8n } from '../../../scripts/n8n/instance';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { CACHE_DIR, REPO_ROOT } from '../../../scripts/n8n/paths';

const log = (line: string) => process.stdout.write(`[e2e polling] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_INTERVAL_MS = 60_000;

/** One bank of a list shape, the API credential pointing at it and the copy of the example that uses it. */
interface Target {
	shape: ListShape;
	bank: SandboxHandle;
	credential: { id: string; name: string; type: string; data: Record<string, unknown> };
	workflowId: string;
}

/** The example as shipped for the documented bank; a copy with its own id and credential for the other. */
const TARGET_IDS: Record<ListShape, { credentialId: string; workflowId: string }> = {
	documented: { credentialId: 'BaasApiSandbox01', workflowId: 'ExFirstLookPoll1' },
	cursor: { credentialId: 'BaasApiCursorSb1', workflowId: 'ExFirstLookPollC' },
};

/** The example's workflow JSON, given `target`'s id, name and credential. */
function exampleFor(example: Record<string, unknown>, target: Target) {
	const credential = { id: target.credential.id, name: target.credential.name };
	return {
		...example,
		id: target.workflowId,
		name: `${String(example.name)} [${target.shape} list shape]`,
		nodes: (example.nodes as Array<Record<string, unknown>>).map((node) => ({ ...node, ...(node.credentials ? { credentials: { baasApi: credential } } : {}) })),
	};
}

/**
 * n8n 2.41's opt-in durable scheduler for poll triggers: each poll is a claimed job with its own context (a
 * 45 s time budget) instead of one context kept for the whole activation.
 */
const DURABLE_SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

export function describePolling(line: N8nLine, port: number, options: { durableScheduler?: boolean } = {}) {
	jest.setTimeout(600_000);
	const scheduler = options.durableScheduler ? ', durable scheduler' : '';
	describe(`n8n ${line.version} (${line.name}${scheduler}): the BaaS (Polling) Trigger with no webhooks`, () => {
		const targets: Target[] = [];
		let n8n: RunningN8n | undefined;
		let apiKey: string;
		let cookie: string;
		const example = JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples', 'first-look-polling.json'), 'utf8')) as Record<string, unknown>;

		beforeAll(async () => {
			const install = await ensureN8n(line, log);
			const tarball = await packPackage(log);
			const userFolder = path.join(CACHE_DIR, 'e2e', `n8n-${line.version}-polling${options.durableScheduler ? '-durable' : ''}`);
			rmSync(userFolder, { recursive: true, force: true });
			mkdirSync(userFolder, { recursive: true });
			await installCommunityPackage(userFolder, tarball, install.runtime, log);
			for (const shape of ['documented', 'cursor'] as const) {
				const bank = await startSandbox({ port: 0, deliverWebhooks: false, listShape: shape });
				const [api] = sandboxCredentials(bank);
				const ids = TARGET_IDS[shape];
				const credential = { ...api, id: ids.credentialId, name: `${api.name} [${shape} list shape]` };
				targets.push({ shape, bank, credential, workflowId: ids.workflowId });
			}
			const config = {
				install,
				userFolder,
				port,
				encryptionKey: `e2e-polling-${line.version}`,
				// startN8n gives n8n's other listeners (the task broker) free ports.
				extraEnv: options.durableScheduler ? DURABLE_SCHEDULER : {},
			};
			const credentialsFile = path.join(userFolder, 'credentials.json');
			writeFileSync(credentialsFile, JSON.stringify(targets.map((t) => t.credential), null, 2));
			await n8nCli(config, ['import:credentials', `--input=${credentialsFile}`]);
			for (const target of targets) {
				const workflowFile = path.join(userFolder, `workflow-${target.shape}.json`);
				writeFileSync(workflowFile, JSON.stringify(exampleFor(example, target), null, 2));
				await n8nCli(config, ['import:workflow', `--input=${workflowFile}`]);
				await n8nCli(
					config,
					line.nodeMajor === 20 ? ['update:workflow', `--id=${target.workflowId}`, '--active=true'] : ['publish:workflow', `--id=${target.workflowId}`],
				);
			}
			n8n = await startN8n(config, log);
			cookie = await ownerSession(n8n.url);
			apiKey = await createApiKey(n8n.url, cookie);
		}, 40 * 60_000);
		afterAll(async () => {
			await n8n?.stop();
			await Promise.all(targets.map((t) => t.bank.close()));
		}, 120_000);

		/** The events the copy of the example for `target` received (its successful executions' trigger output). */
		const emitted = async (target: Target) =>
			(await listExecutions(n8n!.url, apiKey, target.workflowId))
				.filter((run: Execution) => run.status === 'success')
				.flatMap((run) => nodeOutput(run, 'Money Received'));
		const referencesOf = (events: Array<Record<string, unknown>>) => events.map((event) => (event.data as { reference_number: string }).reference_number);
		const collectAt = async (target: Target, reference: string, amount: string) => {
			const account = target.bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const response = await fetch(`${target.bank.url}/__sandbox/collections`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ account_number: account.account_number, amount, reference }),
			});
			expect(response.status).toBe(200);
		};

		test('collections made at a bank that sends no webhooks run the polling workflow within two poll intervals, once each (both list shapes)', async () => {
			// The first poll notes where the bank stands (no history is emitted); events after it are the trigger's.
			// n8n's durable scheduler keeps nothing of the poll it runs at publication (a test: its cursor is not
			// committed), so there the place is set by the first scheduled poll, the second one to ask the bank.
			const polls = options.durableScheduler ? 2 : 1;
			const scenario = async (target: Target) => {
				const { bank } = target;
				const deadline = Date.now() + 2 * POLL_INTERVAL_MS + 30_000;
				while (bank.requests().filter((r) => r.path.endsWith('/fetch_transactions')).length < polls) {
					if (Date.now() > deadline) throw new Error(`n8n never polled the ${target.shape}-shape bank`);
					await sleep(1_000);
				}
				const references = [1, 2, 3].map((i) => `E2E-POLL-${line.nodeMajor}-${target.shape}-${i}`);
				const madeAt = Date.now();
				for (const reference of references) await collectAt(target, reference, '2500.00');
				let events = await emitted(target);
				while (events.length < references.length && Date.now() - madeAt < 2 * POLL_INTERVAL_MS + 10_000) {
					await sleep(2_000);
					events = await emitted(target);
				}
				log(`${target.shape} list shape: ${events.length} events ${((Date.now() - madeAt) / 1000).toFixed(0)} s after the collections`);
				expect([target.shape, referencesOf(events).sort()]).toEqual([target.shape, references]);
				expect(events.every((event) => event.event === 'COLLECTION_SUCCESS' && event.source === 'poll')).toBe(true);
				expect(bank.deliveries()).toHaveLength(0);
				// One more poll: nothing is emitted twice.
				await sleep(POLL_INTERVAL_MS + 5_000);
				expect([target.shape, (await emitted(target)).length]).toEqual([target.shape, references.length]);
			};
			await Promise.all(targets.map(scenario));
		});

		test('the credential turns wrong, then is fixed in the credential: polls pause without asking, and events resume with no re-activation (both list shapes)', async () => {
			const scenario = async (target: Target) => {
				const { bank, credential } = target;
				const saveCredential = async (clientSecret: string) => {
					const response = await fetch(`${n8n!.url}/rest/credentials/${credential.id}`, {
						method: 'PATCH',
						headers: { cookie, 'content-type': 'application/json', 'browser-id': 'e2e' },
						body: JSON.stringify({ name: credential.name, type: credential.type, data: { ...credential.data, clientSecret } }),
					});
					expect(response.status).toBe(200);
				};
				const refusedSignIns = () => bank.requests().filter((r) => r.path.endsWith('/generate_token') && r.status === 401).length;
				const emittedReferences = async () => referencesOf(await emitted(target));

				await saveCredential('mistyped-secret');
				const deadline = Date.now() + 2 * POLL_INTERVAL_MS + 30_000;
				while (refusedSignIns() === 0) {
					if (Date.now() > deadline) throw new Error(`no poll signed in with the mistyped secret (${target.shape}-shape bank)`);
					await sleep(1_000);
				}
				const whileWrong = `E2E-POLL-WRONG-${line.nodeMajor}-${target.shape}`;
				await collectAt(target, whileWrong, '10.00');
				// Two more scheduled polls: paused, so the bank hears no other attempt, and nothing runs.
				await sleep(2 * POLL_INTERVAL_MS + 5_000);
				expect([target.shape, refusedSignIns()]).toEqual([target.shape, 1]);
				expect(await emittedReferences()).not.toContain(whileWrong);

				await saveCredential(bank.seed.clientSecret);
				const afterFix = `E2E-POLL-FIXED-${line.nodeMajor}-${target.shape}`;
				await collectAt(target, afterFix, '10.00');
				const fixedAt = Date.now();
				let references = await emittedReferences();
				while (!(references.includes(whileWrong) && references.includes(afterFix)) && Date.now() - fixedAt < 2 * POLL_INTERVAL_MS + 10_000) {
					await sleep(2_000);
					references = await emittedReferences();
				}
				log(`${target.shape} list shape: resumed ${((Date.now() - fixedAt) / 1000).toFixed(0)} s after the credential was fixed; refused sign-ins: ${refusedSignIns()}`);
				expect([target.shape, references.filter((r) => r === whileWrong || r === afterFix).sort()]).toEqual([target.shape, [afterFix, whileWrong].sort()]);
				expect([target.shape, refusedSignIns()]).toEqual([target.shape, 1]);
			};
			await Promise.all(targets.map(scenario));
		});
	});
}
