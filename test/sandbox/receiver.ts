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
	/** While held (hold()), no request is answered: how many the sender keeps open at once shows on any machine. */
	private held: { gate: Promise<void>; open: () => void } | undefined;
	/** Answers not sent yet: close() drops them, so a slow answer does not keep the test process alive. */
	private readonly answering = new Set<NodeJS.Timeout>();
	private server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			this.received.push({ headers: req.headers, raw: Buffer.concat(chunks), path: req.url ?? '/' });
			void (this.held?.gate ?? Promise.resolve()).then(() => {
				const timer = setTimeout(() => {
					this.answering.delete(timer);
					this.inFlight--;
					res.writeHead(this.script.shift() ?? this.answer(req.url ?? '/'), { 'content-type': 'text/plain', connection: 'close' });
					res.end('ok');
				}, this.delayMs);
				this.answering.add(timer);
			});
		});
	});
	url = '';

	/** Requests received and not answered yet. */
	get open(): number {
		return this.inFlight;
	}

	/** Answers nothing until release(). */
	hold(): void {
		let open = () => {};
		const gate = new Promise<void>((resolve) => (open = resolve));
		this.held = { gate, open };
	}

	release(): void {
		this.held?.open();
		this.held = undefined;
	}

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
		this.release();
	}

	async waitFor(count: number, timeoutMs = 4000): Promise<Received[]> {
		return await waitFor(`${count} deliveries`, () => this.received.length >= count && this.received, { timeoutMs });
	}

	close(): Promise<void> {
		// Held answers are dropped with their connections (a gate never opened keeps nothing alive).
		this.held = undefined;
		for (const timer of this.answering) clearTimeout(timer);
		this.answering.clear();
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}
}
