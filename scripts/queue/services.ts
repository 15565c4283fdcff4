import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type { Log } from '../n8n/run';
import { run } from '../n8n/run';

/** A private server started for the queue-mode stack; stop() ends it and deletes its data. */
export interface Service {
	port: number;
	stop(): Promise<void>;
}

const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
const isRoot = process.getuid?.() === 0;

/** As root, Postgres refuses to run: it runs as the `postgres` user Debian's package creates. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function waitForPort(port: number, child: ChildProcess, what: string, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} before it listened`);
		const open = await new Promise<boolean>((resolve) => {
			const socket = createConnection({ host: '127.0.0.1', port }, () => {
				socket.end();
				resolve(true);
			});
			socket.on('error', () => resolve(false));
		});
		if (open) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${what} did not listen on ${port} within ${timeoutMs / 1000} s`);
}

function stopper(child: ChildProcess, folder: string) {
	return async () => {
		if (child.exitCode === null && child.signalCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
			await exited;
			clearTimeout(timer);
		}
		rmSync(folder, { recursive: true, force: true });
	};
}

/** A throw-away Postgres cluster on 127.0.0.1:<port>, superuser `n8n` with trust auth, data in a temp folder. */
export async function startPostgres(port: number, log: Log): Promise<Service> {
	if (!existsSync(path.join(POSTGRES_BIN, 'postgres'))) throw new Error(`Postgres 15 is not installed (${POSTGRES_BIN}); run scripts/queue/test-queue.sh`);
	const folder = mkdtempSync(path.join(os.tmpdir(), 'baas-queue-pg-'));
	if (isRoot) chownSync(folder, Number(await run('id', ['-u', 'postgres'], { quiet: true })), Number(await run('id', ['-g', 'postgres'], { quiet: true })));
	const data = path.join(folder, 'data');
	const [initCommand, initArgs] = asPostgres(path.join(POSTGRES_BIN, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-sync']);
	await run(initCommand, initArgs, { quiet: true, timeoutSeconds: 120 });
	const [command, args] = asPostgres(path.join(POSTGRES_BIN, 'postgres'), [
		'-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', folder, '-c', 'fsync=off', '-c', 'max_connections=200',
	]);
	const child = spawn(command, args, { stdio: 'ignore' });
	const stop = stopper(child, folder);
	try {
		await waitForPort(port, child, 'Postgres');
	} catch (error) {
		await stop();
		throw error;
	}
	log(`Postgres on 127.0.0.1:${port} (data in ${folder})`);
	return { port, stop };
}

/** A private Redis on 127.0.0.1:<port> that persists nothing. */
export async function startRedis(port: number, log: Log): Promise<Service> {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'baas-queue-redis-'));
	const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder], {
		stdio: 'ignore',
	});
	const stop = stopper(child, folder);
	try {
		await waitForPort(port, child, 'Redis');
	} catch (error) {
		await stop();
		throw error;
	}
	log(`Redis on 127.0.0.1:${port}`);
	return { port, stop };
}
