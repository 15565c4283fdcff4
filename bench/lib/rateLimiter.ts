/**
 * A rate-limited bank: a proxy in front of the sandbox that lets through at most `perSecond` requests in each
 * second and answers the rest as the sandbox's rate limiting does (HTTP 429, Retry-After: 1, code 29). The
 * sandbox's own 429 fault refuses a random share of requests; this refuses by load, as a real bank's limit does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RateLimitedBank {
	url: string;
	refused: () => number;
	close: () => Promise<void>;
}

export async function rateLimitedBank(targetUrl: string, perSecond: number): Promise<RateLimitedBank> {
	const target = new URL(targetUrl);
	const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
	let second = 0;
	let used = 0;
	let refused = 0;
	const server = http.createServer((req, res) => {
		const now = Math.floor(Date.now() / 1000);
		if (now !== second) {
			second = now;
			used = 0;
		}
		// Sign-in is not limited, so both contenders pay the same for it.
		if (++used > perSecond && !req.url?.includes('generate_token')) {
			refused++;
			req.resume();
			res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
			res.end(JSON.stringify({ status: false, response_code: '29', message: 'Too many requests: retry after 1 second', data: null }));
			return;
		}
		const upstream = http.request(
			{ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		refused: () => refused,
		close: () =>
			new Promise<void>((resolve) => {
				agent.destroy();
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
