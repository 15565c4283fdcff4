import { readAnswerBody } from '../../nodes/Baas/transport/answerBody';

/** A stream of the given chunks, as n8n hands an answer over with encoding 'stream'; `stallAfter` stops it there. */
function answer(chunks: Uint8Array[], stallAfter?: number) {
	const destroyed: Error[] = [];
	let stop: ((error: Error) => void) | undefined;
	return {
		destroyed,
		destroy: (error?: Error) => {
			destroyed.push(error ?? new Error('destroyed'));
			stop?.(error ?? new Error('destroyed'));
		},
		async *[Symbol.asyncIterator]() {
			for (const [index, chunk] of chunks.entries()) {
				if (index === stallAfter) await new Promise((_, reject) => (stop = reject));
				yield chunk;
			}
		},
	};
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading an answer that streams in', () => {
	test('parses the JSON, whatever the chunks, keeping a character split between two chunks', async () => {
		const whole = bytes(JSON.stringify({ status: true, data: { account_name: 'Adaeze Ọkọnkwọ', amount: '₦1,000.50' } }));
		const cut = whole.indexOf(0xe2) + 1; // inside the three bytes of ₦
		await expect(readAnswerBody(answer([whole.slice(0, cut), whole.slice(cut)]), 1000)).resolves.toEqual({
			status: true,
			data: { account_name: 'Adaeze Ọkọnkwọ', amount: '₦1,000.50' },
		});
	});

	test('keeps an answer that is not JSON as its text (a proxy\'s error page), and passes a parsed body through', async () => {
		await expect(readAnswerBody(answer([bytes('<html>Bad gateway</html>')]), 1000)).resolves.toBe('<html>Bad gateway</html>');
		await expect(readAnswerBody(answer([]), 1000)).resolves.toBe('');
		await expect(readAnswerBody({ status: true }, 1000)).resolves.toEqual({ status: true });
	});

	test('an answer that goes quiet halfway fails as ETIMEDOUT at the deadline, and the stream is let go', async () => {
		const quiet = answer([bytes('{"status":'), bytes('true}')], 1);
		const started = Date.now();
		await expect(readAnswerBody(quiet, 150)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect(quiet.destroyed).toHaveLength(1);
	});

	test('a stream that fails halfway fails the read with its error', async () => {
		const failing = {
			async *[Symbol.asyncIterator]() {
				yield bytes('{"status":');
				throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
			},
		};
		await expect(readAnswerBody(failing, 1000)).rejects.toMatchObject({ code: 'ECONNRESET' });
	});
});
