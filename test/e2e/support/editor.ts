import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { Baas } from '../../../nodes/Baas/Baas.node';
import { resourceSelector, RESOURCES } from '../../../nodes/common/actions/resources';
import { authenticationsFor } from '../../../nodes/common/actions/selectors';
import { BaasDashboard } from '../../../nodes/BaasDashboard/BaasDashboard.node';
import { CHROMIUM, SCREENSHOT_DIR } from './screenshot';

/**
 * The browser, or undefined with a message when it is missing outside CI (the screenshots and editor checks
 * are then skipped); in CI (CI set) a missing browser fails.
 */
export async function launchBrowser(log: (line: string) => void): Promise<Browser | undefined> {
	if (!existsSync(CHROMIUM)) {
		if (process.env.CI) throw new Error(`${CHROMIUM} is missing; CI needs it for the editor tests (apt-get install chromium)`);
		log(`${CHROMIUM} is missing: skipping the editor tests and screenshots (install chromium to run them)`);
		return undefined;
	}
	return await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
}

export async function signedInPage(browser: Browser, url: string, cookie: string): Promise<Page> {
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	const [cookieName, cookieValue] = cookie.split('=');
	await context.addCookies([{ name: cookieName, value: cookieValue, url }]);
	return await context.newPage();
}

export async function shoot(page: Page, name: string): Promise<string> {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	const file = path.join(SCREENSHOT_DIR, `${name}.png`);
	await page.screenshot({ path: file });
	return file;
}

/** The picker entries of the two action nodes, with the API each one runs. */
export const ACTION_NODES = [
	{ name: 'BaaS', api: 'apiClient', credential: 'BaaS API (sandbox)' },
	{ name: 'BaaS Dashboard', api: 'dashboardUser', credential: 'BaaS Dashboard API (sandbox)' },
] as const;
export type ActionNodeName = (typeof ACTION_NODES)[number]['name'];

const descriptions: Record<ActionNodeName, INodeTypeDescription> = {
	BaaS: new Baas().nodeVersions[2].description,
	'BaaS Dashboard': new BaasDashboard().description,
};

/**
 * One node's picker as it should be: for each resource's name, the action texts of the operations the router
 * runs for it with that node's API (from the router's table, so an operation missing from the node is listed
 * as "(missing: …)" and fails the comparison).
 */
export function expectedPicker(node: ActionNodeName): Record<string, string[]> {
	const { api } = ACTION_NODES.find((entry) => entry.name === node)!;
	const { properties } = descriptions[node];
	const expected: Record<string, string[]> = {};
	for (const resource of resourceSelector.options as INodePropertyOptions[]) {
		const value = String(resource.value);
		const operations = Object.keys(RESOURCES[value]).filter((operation) => authenticationsFor(value, operation).includes(api));
		if (operations.length === 0) continue;
		const selector = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value));
		const actions = (selector?.options ?? []) as INodePropertyOptions[];
		expected[resource.name] = operations.map(
			(operation) => actions.find((option) => option.value === operation)?.action ?? `(missing: ${value} → ${operation})`,
		);
	}
	return expected;
}

/** A new workflow with a manual trigger, and the node picker opened from its output, as a user adds a step. */
export async function openPickerAfterTrigger(page: Page, url: string) {
	await page.goto(`${url}/workflow/new`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
	await page.waitForSelector('[data-test-id="canvas-add-button"]', { timeout: 120_000 });
	await page.click('[data-test-id="canvas-add-button"]');
	await page.waitForSelector('[data-test-id="node-creator"]');
	await page.keyboard.type('Manual');
	await page.waitForTimeout(1_000);
	await page.keyboard.press('Enter');
	await page.click('[data-test-id="canvas-handle-plus"]');
	await page.waitForSelector('[data-test-id="node-creator"]');
}

/** A new workflow with the node picker opened by "Add first step": the picker's trigger view, as a user starts a workflow. */
export async function openTriggerPicker(page: Page, url: string) {
	await page.goto(`${url}/workflow/new`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
	await page.waitForSelector('[data-test-id="canvas-add-button"]', { timeout: 120_000 });
	await page.click('[data-test-id="canvas-add-button"]');
	await page.waitForSelector('[data-test-id="node-creator"]');
}

const creator = (page: Page) => page.locator('[data-test-id="node-creator"]');

/** The picker's entries as shown: each entry's name and the description under it. */
export async function pickerEntries(page: Page, text: string): Promise<Array<{ name: string; description: string }>> {
	await searchPicker(page, text);
	return await creator(page)
		.locator('[data-test-id="item-iterator-item"]')
		.evaluateAll((items) =>
			items
				.map((item) => ({
					name: item.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim() ?? '',
					description: item.querySelector('[data-test-id="node-creator-item-description"]')?.textContent?.trim() ?? '',
				}))
				.filter((entry) => entry.name !== ''),
		);
}

/** Opens a picker entry by the exact name it shows (a node with actions opens its actions panel). */
export async function openEntry(page: Page, name: string): Promise<string> {
	await creator(page)
		.locator('[data-test-id="item-iterator-item"]')
		.filter({ has: page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^\\s*${name.replace(/[()]/g, '\\$&')}\\s*$`) }) })
		.first()
		.click();
	await page.waitForTimeout(800);
	return await creator(page).innerText();
}

/**
 * The href of the open node panel's "Docs" link (n8n builds it from the node's codex, adding its query string):
 * a tab of the panel on n8n 1.x, a link in its header on 2.x; found by its name, as a person finds it.
 */
export async function docsHref(page: Page): Promise<string> {
	const link = page.locator('[data-test-id="ndv"]').getByRole('link', { name: 'Docs', exact: true }).first();
	await link.waitFor({ timeout: 30_000 });
	return (await link.getAttribute('href')) ?? '';
}

/** Types into the picker's search and returns the names of the entries it lists. */
export async function searchPicker(page: Page, text: string): Promise<string[]> {
	const input = creator(page).locator('input').first();
	await input.fill(text);
	await page.waitForTimeout(800);
	return await page.$$eval('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', (names) =>
		names.map((name) => name.textContent?.trim() ?? ''),
	);
}

/** Opens one action node (by its exact name) from the picker's search; returns what its panel shows: the description and the actions per resource. */
export async function openActions(page: Page, node: ActionNodeName): Promise<{ text: string; actions: Record<string, string[]> }> {
	await searchPicker(page, node);
	await creator(page)
		.locator('[data-test-id="item-iterator-item"]')
		.filter({ has: page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${node}$`) }) })
		.first()
		.click();
	await page.waitForSelector('[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]');
	await page.waitForTimeout(800); // the panel slides in: let it settle before a screenshot
	const text = await creator(page).innerText();
	const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
	const actions: Record<string, string[]> = {};
	let heading: string | undefined;
	for (const line of lines.slice(lines.findIndex((line) => /^Actions \(\d+\)$/.test(line)) + 1)) {
		if (/^Triggers \(\d+\)$/.test(line) || line === 'Manage') break;
		const match = /^(.+) actions$/i.exec(line);
		if (match) {
			heading = match[1].toLowerCase();
			continue;
		}
		if (heading) (actions[heading] ??= []).push(line);
	}
	return { text, actions };
}

/** Picks one BaaS action (from the BaaS panel) and waits for the node's panel to open. */
export async function pickAction(page: Page, action: string) {
	await creator(page)
		.locator('[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]', { hasText: action })
		.first()
		.click();
	await page.waitForSelector('[data-test-id="ndv"]', { timeout: 60_000 });
	await page.waitForTimeout(1_500);
}

/** The open node panel's text, and the labels of its parameters in the order shown. */
export async function panel(page: Page): Promise<{ text: string; labels: string[]; credential: string }> {
	const ndv = page.locator('[data-test-id="ndv"]');
	const labels = await ndv
		.locator('[data-test-id="parameter-item"] label, [data-test-id="parameter-input-field"] label, .parameter-item label')
		.allInnerTexts();
	const select = ndv.locator('[data-test-id="node-credentials-select"] input');
	const credential = (await select.count()) > 0 ? await select.first().inputValue() : '';
	return {
		text: await ndv.innerText(),
		labels: labels.map((label) => label.split('\n')[0].trim()).filter(Boolean),
		credential,
	};
}

/**
 * Chooses a saved credential in the open node panel as a person does: opens its `nth` credential select ("Credential
 * to connect with" on n8n 1.x, "Credential" on 2.x) and clicks the option of that name in the dropdown shown. n8n keeps the dropdown of every
 * select of the panel in the page, hidden until opened, so only the visible options are the open select's. Returns
 * the names of the saved credentials that dropdown offered (without its "Create new credential").
 */
export async function chooseCredential(page: Page, name: string, nth = 0): Promise<string[]> {
	await page.locator('[data-test-id="ndv"] [data-test-id="node-credentials-select"]').nth(nth).click();
	await page.locator('[data-test-id="node-credentials-select-item-new"]').filter({ visible: true }).first().waitFor({ timeout: 30_000 });
	const options = page.locator('[data-test-id^="node-credentials-select-item-"]:not([data-test-id="node-credentials-select-item-new"])').filter({ visible: true });
	// Each option shows the credential's name, then its type's.
	const offered = (await options.allInnerTexts()).map((text) => text.trim().split('\n')[0].trim());
	if (!offered.includes(name)) throw new Error(`the credential select offers ${JSON.stringify(offered)}, not "${name}"`);
	await options.filter({ has: page.getByText(name, { exact: true }) }).first().click();
	await page.waitForTimeout(500);
	return offered;
}
