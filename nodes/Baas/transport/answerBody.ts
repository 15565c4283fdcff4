/**
 * Reads take the bank's answer from n8n as a stream and parse it here. Buffered, n8n's HTTP client keeps every
 * chunk and a joined copy of each answer until the answer is parsed, and those buffers outlive it into V8's old
 * generation: a 100,000-record Return All grew peak memory by 126 MB against 64 MB for a plain fetch loop;
 * streamed, by 82 MB (bench/README.md, benchmark 3).
 */

/** An answer body n8n hands over with `encoding: 'stream'`. */
interface AnswerStream extends AsyncIterable<Uint8Array> {
	destroy?: (error?: Error) => void;
}

function isAnswerStream(body: unknown): body is AnswerStream {
	return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

async function readText(stream: AnswerStream): Promise<string> {
	const decoder = new TextDecoder();
	let text = '';
	for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
	return text + decoder.decode();
}

/**
 * The answer's JSON, or its text when it is not JSON (a proxy's error page). n8n's own timeout ends when the
 * headers arrive, so the body gets a deadline of its own: an answer that stops halfway fails as ETIMEDOUT.
 */
export async function readAnswerBody(body: unknown, deadlineMs: number): Promise<unknown> {
	if (!isAnswerStream(body)) return body;
	const deadline = AbortSignal.timeout(deadlineMs);
	let giveUp: (() => void) | undefined;
	const late = new Promise<never>((_, reject) => {
		giveUp = () => {
			const error = Object.assign(new Error(`the answer stopped before its end and did not finish within ${deadlineMs} ms`), { code: 'ETIMEDOUT' });
			body.destroy?.(error);
			reject(error);
		};
		deadline.addEventListener('abort', giveUp, { once: true });
	});
	const reading = readText(body);
	// Once the deadline has won, the abandoned read's own failure is expected: not an unhandled rejection.
	reading.catch(() => undefined);
	try {
		const text = await Promise.race([reading, late]);
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return text;
		}
	} finally {
		if (giveUp) deadline.removeEventListener('abort', giveUp);
	}
}
