/**
 * Submits an n8n form with one file, as its page does in a browser, and returns the file the form's ending page
 * hands back (Form → Form Ending → Return Binary File): the POST answers with the URL of the next page, the
 * page polls `<url>/n8n-execution-status` until the execution waits there, then loads it; the completion page
 * carries the file in its script (`responseBinary`: one file on n8n 1.x, a list on 2.x) and downloads it, under
 * its title and message (what the person reads).
 */
import { waitFor } from '../../support/waitFor';

interface EmbeddedFile {
	data: string | { type: 'Buffer'; data: number[] };
	fileName: string;
	type: string;
}

function embeddedFiles(page: string): EmbeddedFile[] {
	const match = /const binar(?:y|ies) = "([^"]*)"/.exec(page);
	if (!match || !match[1]) throw new Error(`the form's ending page carries no file:\n${page.slice(0, 2000)}`);
	const parsed = JSON.parse(decodeURIComponent(match[1])) as EmbeddedFile | EmbeddedFile[];
	return Array.isArray(parsed) ? parsed : [parsed];
}

const bytesOf = (file: EmbeddedFile) =>
	typeof file.data === 'string' ? Buffer.from(file.data, 'latin1') : Buffer.from(file.data.data);

/** The ending page's message as a person reads it: each list item on a line of its own, other markup dropped. */
function messageOf(page: string): string {
	const match = /<h1>[^<]*<\/h1>\s*<p[^>]*>([\s\S]*?)<\/p>\s*<\/div>/.exec(page);
	if (!match) throw new Error(`the form's ending page has no message:\n${page.slice(0, 2000)}`);
	const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&amp;': '&' };
	return match[1]
		.replace(/<li>/g, '\n')
		.replace(/<[^>]*>/g, '')
		.replace(/&(lt|gt|quot|#39|#x27|amp);/g, (entity) => entities[entity]);
}

/** Submits a form with one file field (its first); `message` is what its ending page says. */
export async function submitFormFile(
	formUrl: string,
	file: { name: string; type: string; content: string },
): Promise<{ fileName: string; text: string; message: string }> {
	const body = new FormData();
	body.append('field-0', new Blob([file.content], { type: file.type }), file.name);
	const { fileName, text, page } = await submitForm(formUrl, body, 'the payouts to finish and the form to wait on its ending page');
	return { fileName, text, message: messageOf(page) };
}

/** Submits a form of text and date fields (`field-0`, `field-1`, … in the form's order; a date as YYYY-MM-DD). */
export async function submitFormFields(formUrl: string, values: string[]): Promise<{ fileName: string; text: string }> {
	const body = new FormData();
	for (const [i, value] of values.entries()) body.append(`field-${i}`, value);
	const { fileName, text } = await submitForm(formUrl, body, 'the workflow to finish and the form to wait on its ending page');
	return { fileName, text };
}

async function submitForm(formUrl: string, body: FormData, waitingFor: string): Promise<{ fileName: string; text: string; page: string }> {
	const posted = await fetch(formUrl, { method: 'POST', body });
	const answer = await posted.text();
	if (!posted.ok) throw new Error(`the form answered HTTP ${posted.status}: ${answer}`);
	const { formWaitingUrl } = JSON.parse(answer) as { formWaitingUrl?: string };
	if (!formWaitingUrl) throw new Error(`the form answered without formWaitingUrl: ${answer}`);
	await waitFor(
		waitingFor,
		async () => {
			const status = (await (await fetch(`${formWaitingUrl}/n8n-execution-status`)).text()).trim();
			// What the person would see then is n8n's "Problem submitting response", and no file.
			if (status === 'error') throw new Error('the workflow failed before the form\'s ending page (see the Executions list)');
			return status === 'form-waiting';
		},
		{ timeoutMs: 180_000, intervalMs: 1_000 },
	);
	const page = await (await fetch(formWaitingUrl)).text();
	const [result] = embeddedFiles(page);
	// The page posts back once it has shown itself, which ends the execution.
	await fetch(formWaitingUrl, { method: 'POST' });
	return { fileName: result.fileName, text: bytesOf(result).toString('utf8'), page };
}
