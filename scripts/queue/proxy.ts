import type { Server } from 'node:http';
import { createServer, request } from 'node:http';

/**
 * The load balancer in front of the webhook processors: round-robin, bodies and headers passed through byte
 * for byte (the trigger verifies the signature over the raw body). Counts what each backend answered.
 */
export interface RoundRobinProxy {
	url: string;
	/** Requests forwarded to each backend port, by HTTP status answered. */
	served: Map<number, Map<number, number>>;
	close(): Promise<void>;
}

export async function startProxy(port: number, backends: number[]): Promise<RoundRobinProxy> {
	const served = new Map(backends.map((backend) => [backend, new Map<number, number>()]));
	let next = 0;
	const server: Server = createServer((incoming, outgoing) => {
		const backend = backends[next++ % backends.length];
		const upstream = request(
			{ host: '127.0.0.1', port: backend, method: incoming.method, path: incoming.url, headers: incoming.headers },
			(answer) => {
				const counts = served.get(backend)!;
				counts.set(answer.statusCode ?? 0, (counts.get(answer.statusCode ?? 0) ?? 0) + 1);
				outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(outgoing);
			},
		);
		upstream.on('error', () => {
			const counts = served.get(backend)!;
			counts.set(502, (counts.get(502) ?? 0) + 1);
			if (!outgoing.headersSent) outgoing.writeHead(502).end();
			else outgoing.destroy();
		});
		incoming.pipe(upstream);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${port}`,
		served,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
