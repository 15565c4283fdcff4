import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
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

/**
 * The polling example in the real n8n, against a sandbox bank that delivers no webhooks (an n8n the bank cannot
 * reach): collections made at the bank must show up as executions within two poll intervals, each exactly once.
 */
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
		let bank: SandboxHandle;
		let n8n: RunningN8n | undefined;
		let apiKey: string;
		let cookie: string;
		const example = JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples', 'first-look-polling.json'), 'utf8')) as { id: string };

		beforeAll(async () => {
			const install = await ensureN8n(line, log);
			const tarball = await packPackage(log);
			const userFolder = path.join(CACHE_DIR, 'e2e', `n8n-${line.version}-polling${options.durableScheduler ? '-durable' : ''}`);
			rmSync(userFolder, { recursive: true, force: true });
			mkdirSync(userFolder, { recursive: true });
			await installCommunityPackage(userFolder, tarball, install.runtime, log);
			bank = await startSandbox({ port: 0, deliverWebhooks: false });
			const config = {
				install,
				userFolder,
				port,
				encryptionKey: `e2e-polling-${line.version}`,
				// startN8n gives n8n's other listeners (the task broker) free ports.
				extraEnv: options.durableScheduler ? DURABLE_SCHEDULER : {},
			};
			const credentialsFile = path.join(userFolder, 'credentials.json');
			writeFileSync(credentialsFile, JSON.stringify(sandboxCredentials(bank), null, 2));
			await n8nCli(config, ['import:credentials', `--input=${credentialsFile}`]);
			await n8nCli(config, ['import:workflow', `--input=${path.join(REPO_ROOT, 'examples', 'first-look-polling.json')}`]);
			await n8nCli(
				config,
				line.nodeMajor === 20 ? ['update:workflow', `--id=${example.id}`, '--active=true'] : ['publish:workflow', `--id=${example.id}`],
			);
			n8n = await startN8n(config, log);
			cookie = await ownerSession(n8n.url);
			apiKey = await createApiKey(n8n.url, cookie);
		}, 40 * 60_000);
		afterAll(async () => {
			await n8n?.stop();
			await bank?.close();
		}, 120_000);

		test('collections made at a bank that sends no webhooks run the polling workflow within two poll intervals, once each', async () => {
			// The first poll notes where the bank stands (no history is emitted); events after it are the trigger's.
			// n8n's durable scheduler keeps nothing of the poll it runs at publication (a test: its cursor is not
			// committed), so there the place is set by the first scheduled poll, the second one to ask the bank.
			const polls = options.durableScheduler ? 2 : 1;
			const deadline = Date.now() + 2 * POLL_INTERVAL_MS + 30_000;
			while (bank.requests().filter((r) => r.path.endsWith('/fetch_transactions')).length < polls) {
				if (Date.now() > deadline) throw new Error('n8n never polled the bank');
				await sleep(1_000);
			}
			const account = bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const references = [1, 2, 3].map((i) => `E2E-POLL-${line.nodeMajor}-${i}`);
			const madeAt = Date.now();
			for (const reference of references) {
				const response = await fetch(`${bank.url}/__sandbox/collections`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ account_number: account.account_number, amount: '2500.00', reference }),
				});
				expect(response.status).toBe(200);
			}
			const emitted = async () => {
				const runs = (await listExecutions(n8n!.url, apiKey, example.id)).filter((run: Execution) => run.status === 'success');
				return runs.flatMap((run) => nodeOutput(run, 'Money Received'));
			};
			let events = await emitted();
			while (events.length < references.length && Date.now() - madeAt < 2 * POLL_INTERVAL_MS + 10_000) {
				await sleep(2_000);
				events = await emitted();
			}
			log(`${events.length} events ${((Date.now() - madeAt) / 1000).toFixed(0)} s after the collections`);
			expect(events.map((event) => (event.data as { reference_number: string }).reference_number).sort()).toEqual(references);
			expect(events.every((event) => event.event === 'COLLECTION_SUCCESS' && event.source === 'poll')).toBe(true);
			expect(bank.deliveries()).toHaveLength(0);
			// One more poll: nothing is emitted twice.
			await sleep(POLL_INTERVAL_MS + 5_000);
			expect(await emitted()).toHaveLength(references.length);
		});

		test('the credential turns wrong, then is fixed in the credential: polls pause without asking, and events resume with no re-activation', async () => {
			const [apiCredential] = sandboxCredentials(bank);
			const saveCredential = async (clientSecret: string) => {
				const response = await fetch(`${n8n!.url}/rest/credentials/${apiCredential.id}`, {
					method: 'PATCH',
					headers: { cookie, 'content-type': 'application/json', 'browser-id': 'e2e' },
					body: JSON.stringify({ name: apiCredential.name, type: apiCredential.type, data: { ...apiCredential.data, clientSecret } }),
				});
				expect(response.status).toBe(200);
			};
			const refusedSignIns = () => bank.requests().filter((r) => r.path.endsWith('/generate_token') && r.status === 401).length;
			const account = bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const collectAt = async (reference: string) => {
				const response = await fetch(`${bank.url}/__sandbox/collections`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ account_number: account.account_number, amount: '10.00', reference }),
				});
				expect(response.status).toBe(200);
			};
			const emittedReferences = async () =>
				(await listExecutions(n8n!.url, apiKey, example.id))
					.filter((run: Execution) => run.status === 'success')
					.flatMap((run) => nodeOutput(run, 'Money Received'))
					.map((event) => (event.data as { reference_number: string }).reference_number);

			await saveCredential('mistyped-secret');
			const deadline = Date.now() + 2 * POLL_INTERVAL_MS + 30_000;
			while (refusedSignIns() === 0) {
				if (Date.now() > deadline) throw new Error('no poll signed in with the mistyped secret');
				await sleep(1_000);
			}
			const whileWrong = `E2E-POLL-WRONG-${line.nodeMajor}`;
			await collectAt(whileWrong);
			// Two more scheduled polls: paused, so the bank hears no other attempt, and nothing runs.
			await sleep(2 * POLL_INTERVAL_MS + 5_000);
			expect(refusedSignIns()).toBe(1);
			expect(await emittedReferences()).not.toContain(whileWrong);

			await saveCredential(bank.seed.clientSecret);
			const afterFix = `E2E-POLL-FIXED-${line.nodeMajor}`;
			await collectAt(afterFix);
			const fixedAt = Date.now();
			let references = await emittedReferences();
			while (!(references.includes(whileWrong) && references.includes(afterFix)) && Date.now() - fixedAt < 2 * POLL_INTERVAL_MS + 10_000) {
				await sleep(2_000);
				references = await emittedReferences();
			}
			log(`resumed ${((Date.now() - fixedAt) / 1000).toFixed(0)} s after the credential was fixed; refused sign-ins: ${refusedSignIns()}`);
			expect(references.filter((r) => r === whileWrong || r === afterFix).sort()).toEqual([afterFix, whileWrong].sort());
			expect(refusedSignIns()).toBe(1);
		});
	});
}
