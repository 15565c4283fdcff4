import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { N8nInstall } from './install';
import type { Log } from './run';
import { run } from './run';

export interface InstanceConfig {
	install: N8nInstall;
	/** N8N_USER_FOLDER: n8n keeps its database, settings and community packages under <folder>/.n8n. */
	userFolder: string;
	port: number;
	/** Fixed, so credentials imported on an earlier run stay readable. */
	encryptionKey: string;
	extraEnv?: NodeJS.ProcessEnv;
	/** The n8n command: `start` (default), or in queue mode `worker` / `webhook` (these serve no REST routes). */
	command?: 'start' | 'worker' | 'webhook';
	/** Extra CLI arguments, e.g. `--concurrency=5` for a worker. */
	args?: string[];
	/** Port readiness is polled on, when it is not N8N_PORT (a worker's health server). */
	readyPort?: number;
}

/** The environment that keeps n8n on loopback and quiet (N8N-NOTES: The real n8n application). */
export function n8nEnv(config: InstanceConfig): NodeJS.ProcessEnv {
	// A test runner's environment (NODE_ENV=test, JEST_*, N8N_* of the engine tests) must not leak into n8n.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^(NODE_ENV|JEST_|N8N_|DB_|WEBHOOK_URL)/.test(name)),
	);
	return {
		...inherited,
		NODE_ENV: 'production',
		PATH: `${path.dirname(config.install.runtime.node)}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: config.userFolder,
		N8N_PORT: String(config.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		WEBHOOK_URL: `http://127.0.0.1:${config.port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${config.port}/`,
		N8N_ENCRYPTION_KEY: config.encryptionKey,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_LOG_LEVEL: 'warn',
		N8N_EXPRESSION_ENGINE: config.install.line.expressionEngine,
		DB_SQLITE_POOL_SIZE: '2',
		...config.extraEnv,
	};
}

/** Runs one n8n CLI command (import:workflow, update:workflow, …) against the instance's folder. */
export async function n8nCli(config: InstanceConfig, args: string[]): Promise<string> {
	return await run(config.install.runtime.node, [config.install.bin, ...args], {
		env: n8nEnv(config),
		quiet: true,
		timeoutSeconds: 300,
	});
}

export interface RunningN8n {
	url: string;
	process: ChildProcess;
	stop(): Promise<void>;
}

async function waitForReady(url: string, child: ChildProcess, timeoutSeconds: number, command: InstanceConfig['command'] = 'start'): Promise<void> {
	// A webhook processor runs no migrations, so its readiness never turns green; it serves once /healthz answers.
	const probe = command === 'webhook' ? '/healthz' : '/healthz/readiness';
	const deadline = Date.now() + timeoutSeconds * 1000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`n8n exited with code ${child.exitCode} before it was ready`);
		try {
			// Readiness turns green before the REST routes are mounted; wait for both.
			const ready = await fetch(`${url}${probe}`);
			if (ready.ok && command !== 'start') return;
			const rest = ready.ok ? await fetch(`${url}/rest/settings`) : undefined;
			if (rest?.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`n8n was not ready within ${timeoutSeconds} s`);
}

/** Starts `n8n start` (or config.command) and resolves when /healthz/readiness answers 200. Output goes to <userFolder>/n8n.log. */
export async function startN8n(config: InstanceConfig, log: Log, timeoutSeconds = 300): Promise<RunningN8n> {
	mkdirSync(config.userFolder, { recursive: true });
	const command = config.command ?? 'start';
	const logFile = path.join(config.userFolder, command === 'start' ? 'n8n.log' : `n8n-${command}.log`);
	const output = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(config.install.runtime.node, [config.install.bin, command, ...(config.args ?? [])], {
		env: n8nEnv(config),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let recent = '';
	const keep = (chunk: Buffer) => {
		output.write(chunk);
		recent = (recent + chunk.toString()).slice(-4000);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const url = `http://127.0.0.1:${config.port}`;
	const readyUrl = `http://127.0.0.1:${config.readyPort ?? config.port}`;
	log(`starting n8n ${config.install.line.version} ${command} on ${readyUrl} (log: ${logFile})`);
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
		await exited;
		clearTimeout(timer);
	};
	try {
		await waitForReady(readyUrl, child, timeoutSeconds, command);
	} catch (error) {
		await stop();
		output.end();
		throw new Error(`${(error as Error).message}\n--- last output of n8n (${logFile}) ---\n${recent}`);
	}
	return { url, process: child, stop };
}
