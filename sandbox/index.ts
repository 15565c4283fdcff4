/** The sandbox bank: a stateful local implementation of the whole API contract (see sandbox/README.md). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { contractRoutes } from './routes';
import { Runtime } from './runtime/runtime';
import { seedInfo } from './data/seedInfo';
import { createHandler } from './http/server';
import type { SandboxHandle, SandboxOptions } from './types';

export type {
	ConfigurableOptions,
	DeliveryLogEntry,
	FaultSpec,
	ListOrder,
	ListServed,
	ListShape,
	MalformedKind,
	RequestLogEntry,
	SandboxConfig,
	SandboxHandle,
	SandboxOptions,
	SeedInfo,
} from './types';
export type { Bank } from './state/bank';
export { sign as signWebhookBody } from './runtime/webhooks';

/** A URL a client can use: wildcard hosts are reached through loopback. */
function publicHost(host: string): string {
	if (host === '0.0.0.0') return '127.0.0.1';
	if (host === '::') return '[::1]';
	return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
	const rt = new Runtime(options);
	const host = options.host ?? '127.0.0.1';
	const server = http.createServer(createHandler(rt, contractRoutes));
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	let closing: Promise<void> | undefined;
	return {
		url: `http://${publicHost(host)}:${port}`,
		port,
		seed: seedInfo(rt.bank),
		get bank() {
			return rt.bank;
		},
		requests: () => [...rt.requestLog],
		deliveries: () => [...rt.webhooks.log],
		configure: (opts) => rt.configure(opts),
		config: () => ({ ...rt.config }),
		addFault: (f) => {
			rt.faults.add(f);
		},
		clearFaults: () => rt.faults.clear(),
		settlePending: async () => rt.settleAll(),
		markMalformed: (reference, as) => rt.bank.markMalformed(reference, as),
		clearMalformed: () => rt.bank.malformed.clear(),
		onListServed: (callback) => rt.onListServed(callback),
		reset: () => rt.reset(),
		close: () => {
			closing ??= new Promise<void>((resolve) => {
				rt.close();
				server.close(() => resolve());
				server.closeAllConnections();
			});
			return closing;
		},
	};
}
