import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';

/**
 * Stands in for the spreadsheet and chat services of the examples: serves the payout rows and records what
 * the workflows write (POST /sheet, /chat, /outcomes). Loopback only.
 */
export interface Receiver {
	url: string;
	received(path: string): Array<Record<string, unknown>>;
	/** Rows GET /rows answers; with `batchSize`, each GET takes the next batch (one sheet split across runs). */
	setRows(rows: Array<Record<string, unknown>>, batchSize?: number): void;
	close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
	const posts = new Map<string, Array<Record<string, unknown>>>();
	let rows: Array<Record<string, unknown>> = [];
	let batch: number | undefined;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const path = (req.url ?? '/').split('?')[0];
			if (req.method === 'GET' && path === '/rows') {
				const answer = batch === undefined ? rows : rows.splice(0, batch);
				res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
				return;
			}
			let body: Record<string, unknown> = {};
			try {
				body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
			} catch {
				body = { unparsable: Buffer.concat(chunks).toString('utf8') };
			}
			posts.set(path, [...(posts.get(path) ?? []), body]);
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received: (path) => posts.get(path) ?? [],
		setRows: (next, batchSize) => {
			rows = [...next];
			batch = batchSize;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
