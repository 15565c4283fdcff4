/**
 * Any number of n8n on one machine: startN8n gives every listener of n8n 2.x a free port (its task broker listens on
 * 5679 by default, even with runners off), and an n8n that exits before it is ready is reported with its own output.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';

import { ensureN8n } from '../../scripts/n8n/install';
import type { InstanceConfig, RunningN8n } from '../../scripts/n8n/instance';
import { startN8n } from '../../scripts/n8n/instance';
import { CACHE_DIR, LINES } from '../../scripts/n8n/paths';

jest.setTimeout(15 * 60_000);

// BAAS_E2E_PORT_BASE + 30 and + 31, clear of the other e2e files' n8n instances.
const BASE = Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 30;
const log = (line: string) => process.stdout.write(`[e2e] ${line}\n`);

/** Holds 127.0.0.1:<port> when nothing else does (n8n's default broker port may already be taken: all the better). */
async function occupy(port: number): Promise<Server | undefined> {
	const server = createServer();
	return await new Promise((resolve) => {
		server.once('error', () => resolve(undefined));
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
}

describe('n8n 2.x instances side by side', () => {
	const line = LINES['2'];
	const held: Server[] = [];
	const running: RunningN8n[] = [];
	let config: (name: string, port: number) => InstanceConfig;

	beforeAll(async () => {
		const install = await ensureN8n(line, log);
		config = (name, port) => {
			const userFolder = path.join(CACHE_DIR, 'e2e', `instances-${name}`);
			rmSync(userFolder, { recursive: true, force: true });
			return { install, userFolder, port, encryptionKey: `e2e-instances-${name}`, portHint: 'BAAS_E2E_PORT_BASE' };
		};
		const broker = await occupy(5679);
		if (broker) held.push(broker);
	});
	afterAll(async () => {
		await Promise.all(running.map(async (n8n) => await n8n.stop()));
		await Promise.all(held.map(async (server) => await new Promise((resolve) => server.close(resolve))));
	});

	test('two n8n started at once, with 5679 taken, both become ready', async () => {
		const started = await Promise.all([startN8n(config('a', BASE), log), startN8n(config('b', BASE + 1), log)]);
		running.push(...started);
		for (const n8n of started) expect((await fetch(`${n8n.url}/healthz/readiness`)).status).toBe(200);
	});

	test('an n8n that exits before it is ready is reported with its own last output', async () => {
		const taken = (await occupy(0)) as Server;
		held.push(taken);
		const port = (taken.address() as { port: number }).port;
		const failing = { ...config('c', BASE + 2), extraEnv: { N8N_RUNNERS_BROKER_PORT: String(port) } };
		const error = (await startN8n(failing, log).catch((e: Error) => e)) as Error;
		expect(error.message).toMatch(/^n8n exited with code 1 before it was ready/);
		// n8n's own words about the port, not an empty log.
		expect(error.message.split('--- last output of n8n')[1]).toMatch(new RegExp(`${port}|EADDRINUSE`));
	});

	test('a main port that is taken is named, with how to pick another', async () => {
		// The first test's n8n holds BASE.
		const error = (await startN8n(config('d', BASE), log).catch((e: Error) => e)) as Error;
		expect(error.message).toBe(`127.0.0.1:${BASE} is already in use (another n8n, or another program): pick another port with BAAS_E2E_PORT_BASE`);
	});
});
