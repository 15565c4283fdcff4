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

/**
 * The first of `span` consecutive ports that are all free now, from a random start in 20000-31999 (below the
 * range the system hands out for port 0, so a port chosen by the system does not land in it later): a suite whose
 * files use fixed offsets from a base gets a base no other program on the machine holds.
 */
export async function freePortBase(span: number): Promise<number> {
	const low = 20_000;
	const high = 32_000 - span;
	for (let attempt = 0; attempt < 50; attempt++) {
		const base = low + Math.floor((Math.random() * (high - low)) / 100) * 100;
		let free = true;
		for (let port = base; port < base + span && free; port++) free = await isPortFree(port);
		if (free) return base;
	}
	throw new Error(`no ${span} free consecutive ports found between ${low} and 32000`);
}
