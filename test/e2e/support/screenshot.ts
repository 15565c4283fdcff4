import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { REPO_ROOT } from '../../../scripts/n8n/paths';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'screenshots');
export const CHROMIUM = '/usr/bin/chromium';

export interface EditorShot {
	file: string;
	bytes: number;
	/** Node titles the canvas showed. */
	nodeTitles: string[];
	/** How many distinct colours the screenshot has (a blank page has one or two). */
	distinctColours: number;
}

/**
 * Opens a workflow in n8n's editor in headless Chromium (signed in with the owner's cookie), waits for the
 * canvas, saves a PNG and measures it: the canvas nodes' titles, and the colour count of the image, decoded by
 * the browser itself so no image library is needed.
 */
export async function screenshotWorkflow(url: string, cookie: string, workflowId: string, name: string): Promise<EditorShot> {
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	try {
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
		const [cookieName, cookieValue] = cookie.split('=');
		await context.addCookies([{ name: cookieName, value: cookieValue, url }]);
		const page = await context.newPage();
		await page.goto(`${url}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
		await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 120_000 });
		await page.waitForTimeout(2_000);
		const nodeTitles = await page.$$eval('[data-test-id="canvas-node"]', (nodes) =>
			nodes.map((node) => node.getAttribute('data-node-name') ?? node.textContent?.trim() ?? ''),
		);
		const png = await page.screenshot({ fullPage: false });
		mkdirSync(SCREENSHOT_DIR, { recursive: true });
		const file = path.join(SCREENSHOT_DIR, `${name}.png`);
		writeFileSync(file, png);

		const probe = await context.newPage();
		// Runs in the page (the browser decodes the PNG); kept as source because this project compiles without DOM types.
		const distinctColours = (await probe.evaluate(`(async () => {
			const image = new Image();
			image.src = 'data:image/png;base64,${png.toString('base64')}';
			await image.decode();
			const canvas = document.createElement('canvas');
			canvas.width = image.width;
			canvas.height = image.height;
			const context2d = canvas.getContext('2d');
			context2d.drawImage(image, 0, 0);
			const { data } = context2d.getImageData(0, 0, image.width, image.height);
			const colours = new Set();
			for (let i = 0; i < data.length; i += 4 * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
			return colours.size;
		})()`)) as number;
		return { file, bytes: png.length, nodeTitles, distinctColours };
	} finally {
		await browser.close();
	}
}
