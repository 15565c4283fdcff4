import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	path: string;
	authorization?: string;
}

export interface RecordingProxy {
	url: string;
	/** Every request passed on, oldest first, with the Authorization header it carried. */
	seen: RecordedRequest[];
	close(): Promise<void>;
}

/**
 * A pass-through in front of a bank that notes which Authorization header each request carried (the sandbox's
 * own log holds no headers). Requests and answers go through unchanged.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
	const seen: RecordedRequest[] = [];
	const server = http.createServer((request, response) => {
		seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
		const forward = http.request(`${target}${request.url ?? ''}`, { method: request.method, headers: request.headers }, (answer) => {
			response.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(response);
		});
		forward.on('error', () => response.destroy());
		request.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
