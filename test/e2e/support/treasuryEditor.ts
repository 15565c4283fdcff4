/**
 * The treasury assistant in n8n's editor, as a person tries it: the workflow's **Open chat**, a payment asked for,
 * the review message in the chat with its buttons, and a click on **Approve payment** (or **Decline**) there. Screenshots of the
 * review waiting and of the answer go to screenshots/ (docs/ai-agents.md takes its picture from them).
 */
import type { Browser, Page } from 'playwright-core';

import { shoot } from './editor';

/**
 * The chat's buttons answer through the browser's fetch of n8n's signed link, and n8n ignores such a link when
 * the user agent looks like a bot (link previews), as headless Chromium's does: the page says it is a browser.
 */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

async function drag(page: Page, selector: string, dx: number, dy: number) {
	const box = await page.locator(selector).first().boundingBox();
	if (!box) return;
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy, { steps: 10 });
	await page.mouse.up();
}

export interface EditorReview {
	/** The review message as the chat shows it. */
	shown: string;
	/** The assistant's answer after the approval. */
	answer: string;
	screenshots: string[];
}

/** What the person does with the review in the editor's chat, and the text that says the assistant answered. */
export interface EditorDecision {
	/** Text the review message holds, waited for before anything is read. */
	review: string;
	/** A button of the review, or a chat message typed while the review waits. */
	button: 'Approve payment' | 'Decline' | { type: string };
	answer: RegExp;
}

export const APPROVE: EditorDecision = { review: 'Payment waiting for your approval', button: 'Approve payment', answer: /Transfer \S+ of NGN [\d.]+: successful/ };

export async function reviewInEditorChat(
	browser: Browser,
	url: string,
	cookie: string,
	workflowId: string,
	request: string,
	name: string,
	decision: EditorDecision = APPROVE,
): Promise<EditorReview> {
	const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, userAgent: BROWSER });
	try {
		const [cookieName, cookieValue] = cookie.split('=');
		await context.addCookies([{ name: cookieName, value: cookieValue, url }]);
		const page = await context.newPage();
		// The machine is shared and n8n's editor is large: its first load can take minutes.
		page.setDefaultNavigationTimeout(180_000);
		page.setDefaultTimeout(120_000);
		await page.goto(`${url}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await page.locator('[data-test-id="workflow-chat-button"]').first().click();
		const input = page.locator('textarea[data-test-id="chat-input"]').first();
		await input.fill(request);
		await input.press('Enter');
		const chat = page.locator('[data-test-id="canvas-chat"]');
		await chat.getByText(decision.review).waitFor();
		const button = chat.getByRole('button', { name: typeof decision.button === 'string' ? decision.button : 'Decline', exact: true });
		await button.waitFor();
		// A taller panel and a wider chat, so the picture shows the whole message beside the run's log.
		await drag(page, '[data-test-id="logs-panel"] [data-test-id="resize-handle"][class*="_top_"]', 0, -330);
		await drag(page, '[data-test-id="logs-panel"] [class*="_chat_"] > [data-test-id="resize-handle"][class*="_right_"]', 260, 0);
		await page.locator('[data-test-id="zoom-to-fit"]').click();
		await page.waitForTimeout(1_500);
		const shown = await chat.innerText();
		const screenshots = [await shoot(page, `${name}-review`)];
		if (typeof decision.button === 'string') await button.click();
		else {
			await input.fill(decision.button.type);
			await input.press('Enter');
		}
		await chat.getByText(decision.answer).waitFor();
		await page.waitForTimeout(1_000);
		screenshots.push(await shoot(page, `${name}-answered`));
		return { shown, answer: await chat.innerText(), screenshots };
	} finally {
		await context.close();
	}
}
