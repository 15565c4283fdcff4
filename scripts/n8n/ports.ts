import { createServer } from 'node:net';

/** A port nothing listens on at this moment, chosen by the system (127.0.0.1). */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
		});
	});
}

/** True when 127.0.0.1:<port> can be listened on now. */
export async function isPortFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** Ports a test asks for, or free ones: 0 picks a free port (so any number of stacks share a machine). */
export async function portOrFree(port: number): Promise<number> {
	return port === 0 ? await freePort() : port;
}
