import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import type { Execution } from '../../../scripts/n8n/api';
import { createApiKey, listExecutions, nodeOutput, ownerSession } from '../../../scripts/n8n/api';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
import type { N8nInstall } from '../../../scripts/n8n/install';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { InstanceConfig, RunningN8n } from '../../../scripts/n8n/instance';
import { n8nCli, startN8n } from '../../../scripts/n8n/instance';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { CACHE_DIR, REPO_ROOT } from '../../../scripts/n8n/paths';
import { waitFor } from '../../support/waitFor';

const log = (line: string) => process.stdout.write(`[e2e url change] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Example {
	id: string;
	nodes: Array<{ type: string; webhookId?: string }>;
}

/**
 * "BaaS: first look" active in the real n8n, then n8n stopped and started again on another port (as after a new
 * domain, a changed WEBHOOK_URL or a busy port): with no step by the user, the bank must deliver the next
 * collection to the new URL and the workflow run exactly once.
 */
export function describeUrlChange(line: N8nLine, firstPort: number, secondPort: number) {
	jest.setTimeout(600_000);
	describe(`n8n ${line.version} (${line.name}): the BaaS Trigger after n8n's URL changes`, () => {
		let bank: SandboxHandle;
		let install: N8nInstall;
		let userFolder: string;
		let n8n: RunningN8n | undefined;
		const exampleOf = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8')) as Example;
		const example = exampleOf('first-look.json');
		const safetyNet = exampleOf('webhook-with-polling-safety-net.json');
		const webhookId = example.nodes.find((node) => node.type.endsWith('.baasTrigger'))!.webhookId!;
		const urlAt = (port: number) => `http://127.0.0.1:${port}/webhook/${webhookId}/webhook`;
		const config = (port: number): InstanceConfig => ({
			install,
			userFolder,
			port,
			encryptionKey: `e2e-url-change-${line.version}`,
			// Debug level on n8n 2.x: it says that it registered a webhook only there.
			...(line.nodeMajor === 20 ? {} : { extraEnv: { N8N_LOG_LEVEL: 'debug' } }),
		});
		const registrations = () => bank.requests().filter((r) => r.path.endsWith('/customer/api/create_webhook')).length;
		const n8nLog = () => (existsSync(path.join(userFolder, 'n8n.log')) ? readFileSync(path.join(userFolder, 'n8n.log'), 'utf8') : '');
		// n8n 1.x logs the activation at info level; n8n 2.x the webhook's registration at debug level.
		const activations = () =>
			n8nLog().split(line.nodeMajor === 20 ? 'Activated workflow "BaaS: first look' : 'Added webhook "Money Received" for workflow "BaaS: first look')
				.length - 1;
		let apiKey = '';
		/** Starts n8n and waits until it has activated the workflow (and so saved the trigger's static data). */
		const startAt = async (port: number) => {
			const before = activations();
			const running = await startN8n(config(port), log);
			try {
				await waitFor('n8n to activate the workflow', () => activations() > before, { timeoutMs: 120_000, intervalMs: 500 });
			} catch (error) {
				await running.stop();
				throw error;
			}
			return running;
		};

		beforeAll(async () => {
			install = await ensureN8n(line, log);
			const tarball = await packPackage(log);
			userFolder = path.join(CACHE_DIR, 'e2e', `n8n-${line.version}-url-change`);
			rmSync(userFolder, { recursive: true, force: true });
			mkdirSync(userFolder, { recursive: true });
			await installCommunityPackage(userFolder, tarball, install.runtime, log);
			bank = await startSandbox({ port: 0 });
			const credentialsFile = path.join(userFolder, 'credentials.json');
			writeFileSync(credentialsFile, JSON.stringify(sandboxCredentials(bank), null, 2));
			await n8nCli(config(firstPort), ['import:credentials', `--input=${credentialsFile}`]);
			for (const workflow of [example, safetyNet]) {
				const file = workflow === example ? 'first-look.json' : 'webhook-with-polling-safety-net.json';
				await n8nCli(config(firstPort), ['import:workflow', `--input=${path.join(REPO_ROOT, 'examples', file)}`]);
				await n8nCli(
					config(firstPort),
					line.nodeMajor === 20 ? ['update:workflow', `--id=${workflow.id}`, '--active=true'] : ['publish:workflow', `--id=${workflow.id}`],
				);
			}
		}, 40 * 60_000);
		afterAll(async () => {
			await n8n?.stop();
			await bank?.close();
		}, 120_000);

		test('started again on another port, n8n tells the bank the new URL and a collection runs the workflow exactly once', async () => {
			n8n = await startAt(firstPort);
			expect(bank.bank.webhooks.map((w) => w.url)).toContain(urlAt(firstPort));
			await n8n.stop();

			n8n = await startAt(secondPort);
			expect(bank.bank.webhooks.map((w) => w.url)).toEqual(expect.arrayContaining([urlAt(firstPort), urlAt(secondPort)]));
			apiKey = await createApiKey(n8n.url, await ownerSession(n8n.url));
			const account = bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const reference = `E2E-URL-${line.nodeMajor}-${Date.now()}`;
			const made = await fetch(`${bank.url}/__sandbox/collections`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ account_number: account.account_number, amount: '1500.00', reference }),
			});
			expect(made.status).toBe(200);
			const runs = await waitFor(
				'the execution of the collection',
				async () => {
					const done = (await listExecutions(n8n!.url, apiKey, example.id)).filter((run) => run.status === 'success');
					return done.length > 0 ? done : undefined;
				},
				{ timeoutMs: 120_000, intervalMs: 1_000 },
			);
			// The bank also tries the old URL (it cannot be unregistered); nothing there may start a second run.
			await sleep(5_000);
			expect(await listExecutions(n8n.url, apiKey, example.id)).toHaveLength(1);
			expect(runs[0].status).toBe('success');
			const delivered = bank.deliveries().filter((d) => d.reference === reference);
			expect(delivered.some((d) => d.url === urlAt(secondPort) && d.status === 200)).toBe(true);
			expect(n8nLog()).toContain(
				`n8n's webhook URL changed from ${urlAt(firstPort)} to ${urlAt(secondPort)}`,
			);
		});

		test('started again on the same port, the trigger asks the bank nothing', async () => {
			await n8n?.stop();
			const before = registrations();
			n8n = await startAt(secondPort);
			expect(registrations()).toBe(before);
		});

		test('the README\'s "Running both" recipe: each collection passes once, and one the webhook misses is caught by the next poll', async () => {
			const account = bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const collect = async (reference: string) => {
				const made = await fetch(`${bank.url}/__sandbox/collections`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ account_number: account.account_number, amount: '700.00', reference }),
				});
				expect(made.status).toBe(200);
			};
			const passed = async () =>
				(await listExecutions(n8n!.url, apiKey, safetyNet.id))
					.filter((run: Execution) => run.status === 'success')
					.flatMap((run) => nodeOutput(run, 'Once per Event'))
					.map((event) => (event.data as { reference_number: string }).reference_number);
			const polls = () => bank.requests().filter((r) => r.path.endsWith('/fetch_transactions')).length;
			// The poll trigger's first poll only notes where the bank stands.
			await waitFor('the first poll', () => polls() > 0, { timeoutMs: 150_000, intervalMs: 1_000 });

			const both = `E2E-BOTH-${line.nodeMajor}-${Date.now()}`;
			await collect(both);
			await waitFor('the webhook run', async () => (await passed()).includes(both) || undefined, { timeoutMs: 60_000, intervalMs: 1_000 });
			const pollsBefore = polls();
			await waitFor('the next poll', () => polls() > pollsBefore, { timeoutMs: 150_000, intervalMs: 1_000 });
			await sleep(10_000);

			// The bank loses this trigger's registration: only polling can bring the next collection.
			const webhookUrl = `${n8n!.url}/webhook/${safetyNet.nodes.find((node) => node.type.endsWith('.baasTrigger'))!.webhookId}/webhook`;
			bank.bank.webhooks.splice(0, bank.bank.webhooks.length, ...bank.bank.webhooks.filter((w) => w.url !== webhookUrl));
			const missed = `E2E-MISSED-${line.nodeMajor}-${Date.now()}`;
			await collect(missed);
			await waitFor('the poll that catches the missed collection', async () => (await passed()).includes(missed) || undefined, {
				timeoutMs: 150_000,
				intervalMs: 2_000,
			});
			const through = await passed();
			expect(through.filter((reference) => reference === both)).toHaveLength(1);
			expect(through.filter((reference) => reference === missed)).toHaveLength(1);
			expect(bank.deliveries().some((d) => d.reference === missed && d.url === webhookUrl)).toBe(false);
		});
	});
}
