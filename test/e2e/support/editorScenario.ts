import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { formatBalance } from '../../../nodes/common/methods/sendingAccountSearch';
import { BAAS_DESCRIPTION } from '../../../nodes/common/nodeDescription';
import { BaasPollTrigger } from '../../../nodes/BaasPollTrigger/BaasPollTrigger.node';
import { POLL_TRIGGER_ACTIVATION_MESSAGE } from '../../../nodes/BaasPollTrigger/description';
import { formatBalance as bankBalance } from '../../../sandbox/data/money';
import { REPO_ROOT } from '../../../scripts/n8n/paths';
import type { ActionNodeName } from './editor';
import {
	ACTION_NODES,
	chooseCredential,
	docsHref,
	expectedPicker,
	launchBrowser,
	openActions,
	openEntry,
	openPickerAfterTrigger,
	openTriggerPicker,
	panel,
	pickAction,
	pickerEntries,
	searchPicker,
	shoot,
	signedInPage,
} from './editor';
import { withApiCredential } from './signInGuard';
import type { Stack } from './stack';

const REPOSITORY_FILES = 'https://github.com/n8n-nodes-baas/n8n-nodes-baas/blob/main/';

/**
 * Where a node panel's Docs link leads once n8n has added its query string: the page (origin and path, which
 * must be a file of this repository) and the fragment, which must be empty (a query inside a fragment is what
 * made the old README#section links open at the top of the README).
 */
function docsTarget(href: string) {
	const url = new URL(href);
	const page = `${url.origin}${url.pathname}`;
	const file = page.startsWith(REPOSITORY_FILES) ? page.slice(REPOSITORY_FILES.length) : undefined;
	return { page, hash: url.hash, fileExists: file !== undefined && existsSync(path.join(REPO_ROOT, file)) };
}
const opensPage = (file: string) => ({ page: `${REPOSITORY_FILES}${file}`, hash: '', fileExists: true });

const sortedPicker = (picker: Record<string, string[]>) =>
	Object.fromEntries(Object.entries(picker).map(([resource, actions]) => [resource.toLowerCase(), [...actions].sort()]));

/** Picks a trigger action in the open actions panel and waits for the node's panel. */
async function creatorAction(page: Page, action: RegExp) {
	await page
		.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]', { hasText: action })
		.first()
		.click();
	await page.waitForSelector('[data-test-id="ndv"]', { timeout: 60_000 });
	await page.waitForTimeout(1_500);
}

/** The editor as a new user sees it, in Chromium: the picker, the credential each action comes with, Send money, the trigger. */
export function describeEditor(stack: () => Stack, version: string) {
	describe('the editor, as a user sees it (Chromium)', () => {
		let browser: Browser | undefined;
		let page: Page;
		beforeAll(async () => {
			browser = await launchBrowser((line) => process.stdout.write(`[e2e] ${line}\n`));
			if (browser) page = await signedInPage(browser, stack().n8n.url, stack().cookie);
		}, 120_000);
		afterAll(async () => {
			await browser?.close();
		});
		const inBrowser = (name: string, body: () => Promise<void>) =>
			test(name, async () => {
				if (browser) await body();
			}, 300_000);
		const credentialOf = (node: ActionNodeName) => ACTION_NODES.find((entry) => entry.name === node)!.credential;

		test.each(ACTION_NODES.map((node) => [node.name]))('the picker lists each operation of %s once, under its resource', async (node) => {
			if (!browser) return;
			await openPickerAfterTrigger(page, stack().n8n.url);
			const shown = await openActions(page, node);
			await shoot(page, `picker-${node === 'BaaS' ? 'baas' : 'dashboard'}-n8n-${version}`);
			const expected = expectedPicker(node);
			expect(sortedPicker(shown.actions)).toEqual(sortedPicker(expected));
			expect(shown.text).toContain(`Actions (${Object.values(expected).flat().length})`);
			if (node === 'BaaS') expect(shown.text).toContain(BAAS_DESCRIPTION);
		}, 300_000);

		inBrowser('searching the picker for any action phrase finds the node that runs it', async () => {
			await openPickerAfterTrigger(page, stack().n8n.url);
			const missed: string[] = [];
			const phrases = ACTION_NODES.flatMap(({ name }) => Object.values(expectedPicker(name)).flat().map((phrase) => [phrase, name]));
			for (const [phrase, node] of [...phrases, ['name enquiry', 'BaaS Dashboard'], ['team member', 'BaaS Dashboard'], ['total balance', 'BaaS Dashboard'], ['payout', 'BaaS']]) {
				if (!(await searchPicker(page, phrase)).includes(node)) missed.push(`${phrase} → ${node}`);
			}
			expect(missed).toEqual([]);
		});

		// n8n preselects the saved credential a node's action runs with (a BaaS Dashboard credential is saved too).
		test.each([
			['BaaS', 'Get many banks'],
			['BaaS', 'Get many accounts'],
			['BaaS Dashboard', 'Get many settlements'],
			['BaaS Dashboard', 'Get collection totals per account'],
			['BaaS Dashboard', 'Get many accounts'],
		] as Array<[ActionNodeName, string]>)('picking %s → "%s" preselects a credential that can run it', async (node, action) => {
			if (!browser) return;
			await openPickerAfterTrigger(page, stack().n8n.url);
			await openActions(page, node);
			await pickAction(page, action);
			expect((await panel(page)).credential).toBe(credentialOf(node));
		}, 300_000);

		inBrowser('BaaS → Send money shows its fields in order with hints, and its output after the step runs', async () => {
			await openPickerAfterTrigger(page, stack().n8n.url);
			await openActions(page, 'BaaS');
			await pickAction(page, 'Send money');
			const { labels, credential, text } = await panel(page);
			expect(credential).toBe(credentialOf('BaaS'));
			// The reference first (it makes a retry safe), then what moves money, then the optional rest. (The
			// credential's label differs between n8n lines; the credential itself is checked above.)
			const order = ['Resource', 'Operation', 'Reference Number', 'Transfer Type', 'Amount', 'Source Account Number', 'Beneficiary Account Number', 'Narration', 'Additional Fields'];
			expect(labels.filter((label) => order.includes(label))).toEqual(order);
			expect(text).toContain('never rounded');

			const reference = `E2E-UI-${version}-${Date.now()}`;
			const ndv = page.locator('[data-test-id="ndv"]');
			// Reference Number defaults to an expression (the row's reference_number); a manual run types one.
			await ndv.locator('[data-test-id="referenceNumber-parameter-input-options-container"]').hover({ force: true });
			await ndv.locator('[data-test-id="referenceNumber-parameter-input-options-container"] [data-test-id="radio-button-fixed"]').click({ force: true });
			await ndv.locator('[data-test-id="parameter-input-referenceNumber"] input').fill(reference);
			// Under a fixed value n8n shows the field's hint (under an expression, the expression's result).
			expect(await ndv.innerText()).toContain('Keep the same reference when you retry');
			await ndv.locator('[data-test-id="parameter-input-amount"] input').fill('1500.00');
			await ndv.locator('[data-test-id="rlc-input"]').click();
			await page.keyboard.type('0823000001');
			await page.locator('[data-test-id^="rlc-item"]', { hasText: '0823000001' }).first().click();
			await ndv.locator('[data-test-id="parameter-input-beneficiaryAccountNumber"] input').fill('0823100002');
			await ndv.locator('[data-test-id="parameter-input-narration"] input').fill('Paid from the editor');
			await shoot(page, `transfer-create-n8n-${version}`);
			await ndv.locator('[data-test-id="node-execute-button"]').click();
			const output = page.locator('[data-test-id="output-panel"]');
			await output.getByText(reference).first().waitFor({ timeout: 60_000 });
			const shown = await output.innerText();
			await shoot(page, `transfer-create-output-n8n-${version}`);
			expect(shown).toContain('1 item');
			expect(shown).toContain('1500.00');
			expect(shown).toMatch(/successful/);
			const ledger = (await (await fetch(`${stack().bank.url}/__sandbox/ledger`)).json()) as { data: { transfers: Array<{ reference_number: string; amount: string }> } };
			expect(ledger.data.transfers.filter((t) => t.reference_number === reference)).toEqual([expect.objectContaining({ amount: '1500.00' })]);
		});

		// n8n 1.x offered only the BaaS Dashboard credentials here while the BaaS Dashboard credential's condition
		// named Check Beneficiary Name as a field of the node (safetyFields.ts, NAME_CHECK_CREDENTIAL).
		inBrowser("BaaS → Send money's credential select offers the BaaS API credentials; Check Beneficiary Name adds one offering the BaaS Dashboard ones", async () => {
			await openPickerAfterTrigger(page, stack().n8n.url);
			await openActions(page, 'BaaS');
			await pickAction(page, 'Send money');
			const ndv = page.locator('[data-test-id="ndv"]');
			const selects = ndv.locator('[data-test-id="node-credentials-select"]');
			expect(await selects.count()).toBe(1);
			expect(await chooseCredential(page, credentialOf('BaaS'))).toEqual([credentialOf('BaaS')]);
			expect((await panel(page)).credential).toBe(credentialOf('BaaS'));

			const check = ndv.locator('[data-test-id="parameter-input-checkBeneficiaryName"]');
			await check.locator('.el-switch, [role="switch"]').first().click();
			await selects.nth(1).waitFor({ timeout: 30_000 });
			expect(await chooseCredential(page, credentialOf('BaaS Dashboard'), 1)).toEqual([credentialOf('BaaS Dashboard')]);
			await shoot(page, `transfer-credentials-n8n-${version}`);
			const chosen = await selects.locator('input').all();
			expect(await Promise.all(chosen.map(async (select) => await select.inputValue()))).toEqual([credentialOf('BaaS'), credentialOf('BaaS Dashboard')]);
		});

		test.each([
			['BaaS', 'Get many banks', 'docs/nodes/baas.md'],
			['BaaS Dashboard', 'Get many settlements', 'docs/nodes/baas-dashboard.md'],
		] as Array<[ActionNodeName, string, string]>)("%s's Docs link opens its own page, with n8n's query string after the path; its credential's docs link the credentials page", async (node, action, file) => {
			if (!browser) return;
			await openPickerAfterTrigger(page, stack().n8n.url);
			await openActions(page, node);
			await pickAction(page, action);
			expect(docsTarget(await docsHref(page))).toEqual(opensPage(file));
			// The credential's page is reached from the preselected credential's edit button.
			await page.locator('[data-test-id="ndv"] [data-test-id="credential-edit-button"]').first().click();
			const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
			const link = dialog.getByRole('link', { name: /docs/i }).first();
			await link.waitFor({ timeout: 30_000 });
			await shoot(page, `credential-${node === 'BaaS' ? 'baas' : 'dashboard'}-n8n-${version}`);
			expect(docsTarget((await link.getAttribute('href')) ?? '')).toEqual(opensPage('docs/credentials.md'));
			await page.keyboard.press('Escape');
		}, 300_000);

		inBrowser('Send money\'s Source Account list offers the accounts that can send, each with status and balance, largest balance first', async () => {
			await openPickerAfterTrigger(page, stack().n8n.url);
			await openActions(page, 'BaaS');
			// The list is loaded with the preselected BaaS API credential.
			await pickAction(page, 'Send money');
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.locator('[data-test-id="rlc-input"]').click();
			await page.locator('[data-test-id^="rlc-item"]').first().waitFor({ timeout: 60_000 });
			await page.waitForTimeout(500);
			const shown = (await page.locator('[data-test-id^="rlc-item"]').allInnerTexts()).map((text) => text.trim());
			await shoot(page, `transfer-source-accounts-n8n-${version}`);
			await page.keyboard.press('Escape');
			const bank = stack().bank.bank;
			const accounts = bank.businessAccounts(bank.main.id);
			// What the bank holds, as a person would list it: only accounts that can send, the most money first.
			const expected = accounts
				.filter((account) => account.status === 'active')
				.sort((a, b) => (a.balance === b.balance ? a.accountName.localeCompare(b.accountName) : b.balance > a.balance ? 1 : -1))
				.map((account) => `${account.accountNumber} · active · NGN ${formatBalance(bankBalance(account.balance))} · ${account.accountName}`);
			expect(shown).toEqual(expected);
			for (const account of accounts.filter((a) => a.status !== 'active')) {
				expect(shown.filter((entry) => entry.includes(account.accountNumber))).toEqual([]);
			}
			expect(accounts.filter((a) => a.status !== 'active').map((a) => a.status).sort()).toEqual(['blocked', 'closed', 'inactive']);
		});

		inBrowser('the trigger picker shows the Poll Trigger under a name that reads as a trigger, and its Docs link opens its page', async () => {
			const { displayName, description } = new BaasPollTrigger().description;
			await openTriggerPicker(page, stack().n8n.url);
			const entries = await pickerEntries(page, 'BaaS');
			await shoot(page, `picker-triggers-n8n-${version}`);
			// n8n drops the first "Trigger" of a trigger that has several actions: "BaaS (Polling) Trigger" → "BaaS (Polling)".
			// n8n 2.x shows the node's description under it; 1.x shows none for the search results of community nodes.
			expect(entries).toContainEqual({ name: 'BaaS (Polling)', description: version.startsWith('2.') ? description : '' });
			expect(entries.map((entry) => entry.name)).not.toContain('BaaS Poll');
			expect(displayName).toBe('BaaS (Polling) Trigger');
			const actions = await openEntry(page, 'BaaS (Polling)');
			expect(actions).toMatch(/On collection success/i);
			await creatorAction(page, /On collection success/i);
			expect(docsTarget(await docsHref(page))).toEqual(opensPage('docs/nodes/baas-poll-trigger.md'));
			if (!version.startsWith('2.')) return;
			// Publishing says what the trigger will do in its own words, not n8n's "regularly check BaaS (Polling)".
			await page.locator('[data-test-id="ndv-close-button"]').click();
			await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
			await page.locator('[data-test-id="workflow-publish-button"]').click();
			await page.getByText('Workflow published').first().waitFor({ timeout: 60_000 });
			await shoot(page, `published-poll-trigger-n8n-${version}`);
			await expect(page.getByText(POLL_TRIGGER_ACTIVATION_MESSAGE).count()).resolves.toBe(1);
		});

		inBrowser("the trigger's panel shows its test and production URLs and the Webhook Secret hint", async () => {
			await page.goto(`${stack().n8n.url}/workflow/${stack().shipped.collection}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
			await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 120_000 });
			await page.locator('[data-test-id="canvas-node"][data-node-name="Money Received"]').dblclick();
			await page.waitForSelector('[data-test-id="ndv"]');
			await page.getByText('Webhook URLs').first().click();
			await page.waitForTimeout(1_000);
			const { text } = await panel(page);
			await shoot(page, `trigger-n8n-${version}`);
			expect(text).toContain('Webhook Secret of the selected BaaS API credential');
			expect(docsTarget(await docsHref(page))).toEqual(opensPage('docs/nodes/baas-trigger.md'));
			expect(text).toMatch(/Test URL/i);
			expect(text).toMatch(/Production URL/i);
		});

		// Last: it saves a second BaaS API credential for a while, and the tests above expect the sandbox's to be the only one.
		inBrowser("the credential's Test shows the bank's refusal: a saved BaaS API credential edited to a wrong Client Secret", async () => {
			const { bank, n8n, cookie } = stack();
			const name = `BaaS API (browser copy ${version})`;
			const wrong = 'browser-Wrong-Secret-27';
			const right = { baseUrl: bank.url, clientId: bank.seed.clientId, clientSecret: bank.seed.clientSecret, webhookSecret: bank.seed.webhookSecret };
			await withApiCredential(stack(), name, right, async (data) => {
				// Tested once while right, as n8n does when it is saved (a declarative Test then stored a token, which
				// later Tests sent instead of signing in: issue 27).
				const firstTest = await fetch(`${n8n.url}/rest/credentials/test`, {
					method: 'POST',
					headers: { cookie, 'content-type': 'application/json', 'browser-id': 'e2e' },
					body: JSON.stringify({ credentials: { id: data.id, name, type: 'baasApi', data: right } }),
				});
				expect(((await firstTest.json()) as { data: { status: string } }).data.status).toBe('OK');
				const refused = () => bank.requests().filter((r) => r.path.endsWith('/generate_token') && r.response_code === '41').length;
				const before = refused();

				await page.goto(`${n8n.url}/home/credentials/${data.id}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
				const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
				await dialog.waitFor({ timeout: 120_000 });
				const secret = dialog.locator('[data-test-id="credential-connection-parameter"]', { hasText: 'Client Secret' }).locator('input').first();
				await secret.fill(wrong);
				// The Save button sits in the modal's header, outside the dialog's body.
				await page.locator('[data-test-id="credential-save-button"]').first().click();
				// n8n tests a credential when it is saved, and shows what the test said under "More details".
				await dialog.getByText(/Couldn.t connect with these settings/).first().waitFor({ timeout: 60_000 });
				const more = dialog.getByText(/More details/i);
				if ((await more.count()) > 0) await more.first().click();
				await dialog.getByText(/Invalid client credentials \[41\]/).first().waitFor({ timeout: 30_000 });
				const shown = await dialog.innerText();
				await shoot(page, `credential-test-refused-n8n-${version}`);
				expect(shown).toContain('The bank refused to sign in: Invalid client credentials [41]');
				expect(shown).toContain(`credential "${name}"`);
				expect(shown).not.toContain(wrong);
				// The Test asked the bank with the dialog's secret, once.
				expect(refused() - before).toBe(1);
				await page.keyboard.press('Escape');
			});
		});
	});
}
