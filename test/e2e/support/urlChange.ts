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
import { DEAD_DELIVERIES_BEFORE_DISABLE } from '../../../sandbox/runtime/webhooks';
import { waitFor } from '../../support/waitFor';

/** How long the bank refuses create_webhook after n8n's first attempt at start-up. */
const BANK_DOWN_MS = 45_000;
const log = (line: string) => process.stdout.write(`[e2e url change] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Example {
	id: string;
	nodes: Array<{ type: string; webhookId?: string }>;
}

/**
 * "BaaS: first look" active in the real n8n, then n8n stopped and started again: on another port (as after a new
 * domain, a changed WEBHOOK_URL or a busy port), on the same port after the bank disabled the URL while n8n was
 * down, and on the same port while the bank cannot take registrations. With no step by the user, the bank must
 * deliver the next collection and the workflow run exactly once. Prints what re-registering at every start costs.
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
		/**
		 * Waits for n8n's log to say `text` after `from`: the bank records a registration before n8n has read its
		 * answer and written the line, so a read right after the bank's state changes can come too early on a busy CPU.
		 */
		const logSays = (text: string, from: number) =>
			waitFor(`n8n's log to say "${text}"`, () => n8nLog().slice(from).includes(text), { timeoutMs: 60_000, intervalMs: 250 });
		let apiKey = '';
		/** BaaS Triggers in the published workflows: each registers its URL at every start. */
		const triggers = [example, safetyNet].flatMap((workflow) => workflow.nodes).filter((node) => node.type.endsWith('.baasTrigger')).length;
		const registrationAt = (url: string) => bank.bank.webhooks.find((w) => w.url === url);
		const figures = (scenario: string, measured: Record<string, number>) =>
			log(`figures ${scenario}: ${Object.entries(measured).map(([name, value]) => `${name}=${value}`).join(' ')}`);
		const collect = async (reference: string, amount = '1500.00') => {
			const account = bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const made = await fetch(`${bank.url}/__sandbox/collections`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ account_number: account.account_number, amount, reference }),
			});
			expect(made.status).toBe(200);
		};
		/** A collection made now runs "BaaS: first look" exactly once, delivered once to the URL of n8n at `port`. */
		const nextCollectionRunsOnce = async (prefix: string, port: number) => {
			const reference = `${prefix}-${line.nodeMajor}-${Date.now()}`;
			await collect(reference);
			const carrying = async () =>
				(await listExecutions(n8n!.url, apiKey, example.id)).filter((run) =>
					nodeOutput(run, 'Money Received').some((item) => (item.data as { reference_number?: string } | undefined)?.reference_number === reference),
				);
			await waitFor('the run of the collection', async () => ((await carrying()).length > 0 ? true : undefined), {
				timeoutMs: 120_000,
				intervalMs: 1_000,
			});
			// The bank also tries URLs n8n had before (they cannot be unregistered); nothing there may start a second run.
			await sleep(5_000);
			expect((await carrying()).map((run) => run.status)).toEqual(['success']);
			const delivered = bank.deliveries().filter((d) => d.reference === reference && d.url === urlAt(port));
			expect(delivered.map((d) => d.status)).toEqual([200]);
		};
		/** n8n is down for as many collections as make the bank disable its URL (every attempt refused). */
		const bankDisablesWhileDown = async (port: number) => {
			await n8n?.stop();
			n8n = undefined;
			for (let i = 0; i < DEAD_DELIVERIES_BEFORE_DISABLE; i++) await collect(`E2E-WHILE-DOWN-${line.nodeMajor}-${Date.now()}-${i}`);
			await waitFor('the bank to disable the URL', () => registrationAt(urlAt(port))?.disabledAtMs !== undefined, { timeoutMs: 120_000, intervalMs: 500 });
		};
		const createWebhookMs = (since: number) =>
			Math.max(0, ...bank.requests().slice(since).filter((r) => r.path.endsWith('/customer/api/create_webhook')).map((r) => r.ms));
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
			await nextCollectionRunsOnce('E2E-URL', secondPort);
			expect(n8nLog()).toContain(
				`n8n's webhook URL changed from ${urlAt(firstPort)} to ${urlAt(secondPort)}`,
			);
		});

		test('stopped while the bank disabled its URL (3 collections reached nobody), started again on the same port: the trigger registers it again and the next collection runs the workflow exactly once', async () => {
			await bankDisablesWhileDown(secondPort);
			const before = registrations();
			const requestsBefore = bank.requests().length;
			const logFrom = n8nLog().length;
			const started = Date.now();
			n8n = await startAt(secondPort);
			const activatedMs = Date.now() - started;
			await waitFor('every BaaS Trigger to register', () => registrations() - before >= triggers, { timeoutMs: 60_000, intervalMs: 500 });
			expect(registrationAt(urlAt(secondPort))?.disabledAtMs).toBeUndefined();
			await logSays(`registered ${urlAt(secondPort)} with the bank for COLLECTION_SUCCESS`, logFrom);
			await nextCollectionRunsOnce('E2E-DISABLED', secondPort);
			expect(registrations() - before).toBe(triggers);
			figures('restart on the same port', {
				baas_triggers: triggers,
				create_webhook_calls: registrations() - before,
				per_trigger: (registrations() - before) / triggers,
				start_to_activated_ms: activatedMs,
				create_webhook_answer_ms_max: createWebhookMs(requestsBefore),
			});
		});

		test('started while the bank cannot take registrations (after it disabled the URL): the workflow stays active, the trigger registers by itself once the bank is back, and the next collection runs exactly once', async () => {
			await n8n?.stop();
			n8n = undefined;
			// Disabled as the test above had the bank do it (3 events while n8n was down), without waiting for 3 more.
			registrationAt(urlAt(secondPort))!.disabledAtMs = Date.now();
			bank.addFault({ match: 'create_webhook', errorCode: '80' });
			const before = registrations();
			const logFrom = n8nLog().length;
			let failedWhileDown: number;
			try {
				n8n = await startN8n(config(secondPort), log);
				await waitFor('a first registration, refused', () => registrations() > before, { timeoutMs: 120_000, intervalMs: 250 });
				// Down well past n8n's own retries of a failing start-up activation (2.x: 5 attempts, 15 s of waits between them).
				await sleep(BANK_DOWN_MS);
				failedWhileDown = registrations() - before;
			} finally {
				bank.clearFaults();
			}
			expect(failedWhileDown).toBeGreaterThanOrEqual(2 * triggers);
			const back = Date.now();
			await waitFor('the registration once the bank is back', () => registrationAt(urlAt(secondPort))?.disabledAtMs === undefined, {
				timeoutMs: 180_000,
				intervalMs: 500,
			});
			const registeredAfterMs = Date.now() - back;
			expect(n8nLog().slice(logFrom)).toContain(`could not register ${urlAt(secondPort)} with the bank`);
			await logSays(`registered ${urlAt(secondPort)} with the bank for COLLECTION_SUCCESS`, logFrom);
			await nextCollectionRunsOnce('E2E-BANK-BACK', secondPort);
			figures('start while the bank refuses create_webhook', {
				bank_down_ms_after_first_attempt: BANK_DOWN_MS,
				create_webhook_calls_while_down: failedWhileDown,
				registered_ms_after_bank_back: registeredAfterMs,
			});
		});

		test('the README\'s "Running both" recipe: each collection passes once, and one the webhook misses is caught by the next poll', async () => {
			const passed = async () =>
				(await listExecutions(n8n!.url, apiKey, safetyNet.id))
					.filter((run: Execution) => run.status === 'success')
					.flatMap((run) => nodeOutput(run, 'Once per Event'))
					.map((event) => (event.data as { reference_number: string }).reference_number);
			const polls = () => bank.requests().filter((r) => r.path.endsWith('/fetch_transactions')).length;
			// The poll trigger's first poll only notes where the bank stands.
			await waitFor('the first poll', () => polls() > 0, { timeoutMs: 150_000, intervalMs: 1_000 });

			const both = `E2E-BOTH-${line.nodeMajor}-${Date.now()}`;
			await collect(both, '700.00');
			await waitFor('the webhook run', async () => (await passed()).includes(both) || undefined, { timeoutMs: 60_000, intervalMs: 1_000 });
			const pollsBefore = polls();
			await waitFor('the next poll', () => polls() > pollsBefore, { timeoutMs: 150_000, intervalMs: 1_000 });
			await sleep(10_000);

			// The bank loses this trigger's registration: only polling can bring the next collection.
			const webhookUrl = `${n8n!.url}/webhook/${safetyNet.nodes.find((node) => node.type.endsWith('.baasTrigger'))!.webhookId}/webhook`;
			bank.bank.webhooks.splice(0, bank.bank.webhooks.length, ...bank.bank.webhooks.filter((w) => w.url !== webhookUrl));
			const missed = `E2E-MISSED-${line.nodeMajor}-${Date.now()}`;
			await collect(missed, '700.00');
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
