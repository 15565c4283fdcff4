/** A webhook receiver for tests: keeps the raw body bytes and answers with scripted statuses. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { waitFor } from '../support/waitFor';

export interface Received {
	headers: http.IncomingHttpHeaders;
	raw: Buffer;
	path: string;
}

export class Receiver {
	readonly received: Received[] = [];
	/** statuses to answer with, in order; then `answer`'s (200 by default) */
	script: number[] = [];
	answer: (path: string) => number = () => 200;
	/** How long each answer takes, and the most requests that were open at once. */
	delayMs = 0;
	maxInFlight = 0;
	private inFlight = 0;
	/** Answers not sent yet: close() drops them, so a slow answer does not keep the test process alive. */
	private readonly answering = new Set<NodeJS.Timeout>();
	private server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			this.received.push({ headers: req.headers, raw: Buffer.concat(chunks), path: req.url ?? '/' });
			const timer = setTimeout(() => {
				this.answering.delete(timer);
				this.inFlight--;
				res.writeHead(this.script.shift() ?? this.answer(req.url ?? '/'), { 'content-type': 'text/plain', connection: 'close' });
				res.end('ok');
			}, this.delayMs);
			this.answering.add(timer);
		});
	});
	url = '';

	async start(): Promise<this> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	clear(): void {
		this.received.length = 0;
		this.script = [];
		this.answer = () => 200;
		this.delayMs = 0;
		this.maxInFlight = 0;
	}

	async waitFor(count: number, timeoutMs = 4000): Promise<Received[]> {
		return await waitFor(`${count} deliveries`, () => this.received.length >= count && this.received, { timeoutMs });
	}

	close(): Promise<void> {
		for (const timer of this.answering) clearTimeout(timer);
		this.answering.clear();
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}
}
