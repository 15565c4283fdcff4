import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { resourceDescriptions, resourceSelector, RESOURCES } from '../../../nodes/Baas/actions/resources';
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

/** The picker as it should be: for each resource's name, the action texts of the operations the router runs for it. */
export function expectedPicker(): Record<string, string[]> {
	const expected: Record<string, string[]> = {};
	for (const resource of resourceSelector.options as INodePropertyOptions[]) {
		const selector = resourceDescriptions.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		);
		const actions = (selector?.options ?? []) as INodePropertyOptions[];
		expected[resource.name] = Object.keys(RESOURCES[resource.value as string]).map(
			(operation) => actions.find((option) => option.value === operation)?.action ?? `(missing: ${String(resource.value)} → ${operation})`,
		);
	}
	return expected;
}

/** A new workflow with a manual trigger, and the node picker opened from its output, as a user adds a step. */
export async function openPickerAfterTrigger(page: Page, url: string) {
	await page.goto(`${url}/workflow/new`, { waitUntil: 'domcontentloaded' });
	await page.waitForSelector('[data-test-id="canvas-add-button"]', { timeout: 120_000 });
	await page.click('[data-test-id="canvas-add-button"]');
	await page.waitForSelector('[data-test-id="node-creator"]');
	await page.keyboard.type('Manual');
	await page.waitForTimeout(1_000);
	await page.keyboard.press('Enter');
	await page.click('[data-test-id="canvas-handle-plus"]');
	await page.waitForSelector('[data-test-id="node-creator"]');
}

const creator = (page: Page) => page.locator('[data-test-id="node-creator"]');

/** Types into the picker's search and returns the names of the entries it lists. */
export async function searchPicker(page: Page, text: string): Promise<string[]> {
	const input = creator(page).locator('input').first();
	await input.fill(text);
	await page.waitForTimeout(800);
	return await page.$$eval('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', (names) =>
		names.map((name) => name.textContent?.trim() ?? ''),
	);
}

/** Opens BaaS from the picker's search; returns what its panel shows: the description and the actions per resource. */
export async function openBaasActions(page: Page): Promise<{ text: string; actions: Record<string, string[]> }> {
	await searchPicker(page, 'BaaS');
	await creator(page).locator('[data-test-id="item-iterator-item"]', { hasText: /^BaaS/ }).first().click();
	await page.waitForSelector('[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]');
	const text = await creator(page).innerText();
	const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
	const actions: Record<string, string[]> = {};
	let heading: string | undefined;
	for (const line of lines.slice(lines.findIndex((line) => /^Actions \(\d+\)$/.test(line)) + 1)) {
		if (/^Triggers \(\d+\)$/.test(line)) break;
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
