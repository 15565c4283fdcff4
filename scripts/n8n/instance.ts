import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { N8nInstall } from './install';
import { freePort, isPortFree } from './ports';
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
	/** How the person running this picks another port, named when `port` is taken (e.g. "--port N"). */
	portHint?: string;
}

/** The environment that keeps n8n on loopback and quiet (N8N-NOTES: The real n8n application). */
export function n8nEnv(config: InstanceConfig): NodeJS.ProcessEnv {
	// A test runner's environment (NODE_ENV=test, JEST_*, N8N_* of the engine tests) must not leak into n8n.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^(NODE_ENV|JEST_|N8N_|DB_|WEBHOOK_URL)/.test(name)),
	);
	const env: NodeJS.ProcessEnv = {
		...inherited,
		NODE_ENV: 'production',
		PATH: `${path.dirname(config.install.runtime.node)}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: config.userFolder,
		N8N_PORT: String(config.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
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
		// info, not warn: n8n 2.41 says why it exits at info level ("n8n Task Broker's port 5679 is already in use"),
		// so at warn an n8n that exits before it is ready leaves an empty log. The output goes to <userFolder>/n8n.log.
		N8N_LOG_LEVEL: 'info',
		N8N_EXPRESSION_ENGINE: config.install.line.expressionEngine,
		DB_SQLITE_POOL_SIZE: '2',
		...webhookUrlEnv(config),
		...config.extraEnv,
	};
	// n8n 2.x reads N8N_WEBHOOK_URL first and logs WEBHOOK_URL as deprecated.
	if (config.install.line.nodeMajor === 24) delete env.WEBHOOK_URL;
	return env;
}

/** The public base of webhook URLs (a caller's WEBHOOK_URL or N8N_WEBHOOK_URL wins), in the variable each line reads. */
function webhookUrlEnv(config: InstanceConfig): NodeJS.ProcessEnv {
	const url = config.extraEnv?.N8N_WEBHOOK_URL ?? config.extraEnv?.WEBHOOK_URL ?? `http://127.0.0.1:${config.port}/`;
	// 1.x reads only WEBHOOK_URL.
	return config.install.line.nodeMajor === 24 ? { N8N_WEBHOOK_URL: url } : { WEBHOOK_URL: url };
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
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited with ${child.signalCode ?? `code ${child.exitCode}`} before it was ready`);
		}
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

/**
 * Ports for n8n's listeners besides N8N_PORT, read from n8n 2.41.1's configuration (@n8n/config): the task broker
 * (N8N_RUNNERS_BROKER_PORT, default 5679), which every 2.x main and worker starts even with runners off, and a
 * worker's health server (QUEUE_HEALTH_CHECK_PORT, default 5678). Each gets a free port unless the caller names
 * one, so any number of n8n share a machine. (The engine-v2 module's ports are unused: that module is off by default.)
 */
async function listenerEnv(config: InstanceConfig): Promise<NodeJS.ProcessEnv> {
	const given = config.extraEnv ?? {};
	const env: NodeJS.ProcessEnv = {};
	if (!given.N8N_RUNNERS_BROKER_PORT) env.N8N_RUNNERS_BROKER_PORT = String(await freePort());
	if (!given.N8N_RUNNERS_BROKER_LISTEN_ADDRESS) env.N8N_RUNNERS_BROKER_LISTEN_ADDRESS = '127.0.0.1';
	if (config.command === 'worker' && !given.QUEUE_HEALTH_CHECK_PORT) env.QUEUE_HEALTH_CHECK_PORT = String(await freePort());
	return env;
}

/** The error for a main port that is taken, naming how to pick another. */
export class PortInUseError extends Error {
	constructor(readonly port: number, hint?: string) {
		super(`127.0.0.1:${port} is already in use (another n8n, or another program)${hint ? `: pick another port with ${hint}` : ''}`);
	}
}

/**
 * Starts `n8n start` (or config.command) and resolves when /healthz/readiness answers 200. Output goes to
 * <userFolder>/n8n.log; when n8n exits before it is ready, the error carries n8n's last output.
 */
export async function startN8n(config: InstanceConfig, log: Log, timeoutSeconds = 300): Promise<RunningN8n> {
	// A process that is just exiting (a worker killed to be restarted) still holds its port for a moment.
	const deadline = Date.now() + 10_000;
	while (!(await isPortFree(config.port))) {
		if (Date.now() > deadline) throw new PortInUseError(config.port, config.portHint);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	try {
		return await startOnce(config, log, timeoutSeconds);
	} catch (error) {
		// A port chosen free can be taken by another program before n8n listens on it: once more, with new ones.
		const chosen = !config.extraEnv?.N8N_RUNNERS_BROKER_PORT;
		if (!chosen || !/EADDRINUSE/.test((error as Error).message) || !(await isPortFree(config.port))) throw error;
		log('a port chosen for n8n was taken meanwhile; starting again with other ports');
		return await startOnce(config, log, timeoutSeconds);
	}
}

async function startOnce(config: InstanceConfig, log: Log, timeoutSeconds: number): Promise<RunningN8n> {
	mkdirSync(config.userFolder, { recursive: true });
	const command = config.command ?? 'start';
	const logFile = path.join(config.userFolder, command === 'start' ? 'n8n.log' : `n8n-${command}.log`);
	const output = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(config.install.runtime.node, [config.install.bin, command, ...(config.args ?? [])], {
		env: { ...n8nEnv(config), ...(await listenerEnv(config)) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let recent = '';
	const keep = (chunk: Buffer) => {
		output.write(chunk);
		recent = (recent + chunk.toString()).slice(-4000);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	const closed = new Promise((resolve) => child.once('close', resolve));
	// 'close' comes after the last output is read ('exit' can come before it); a grandchild holding the pipes
	// open must not hold up a stop, so it is waited for 2 s at most.
	const drained = async () => {
		await exited;
		await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
	};
	const url = `http://127.0.0.1:${config.port}`;
	const readyUrl = `http://127.0.0.1:${config.readyPort ?? config.port}`;
	log(`starting n8n ${config.install.line.version} ${command} on ${readyUrl} (log: ${logFile})`);
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
			await exited;
			clearTimeout(timer);
		}
		await drained();
	};
	try {
		await waitForReady(readyUrl, child, timeoutSeconds, command);
	} catch (error) {
		await stop();
		await new Promise((resolve) => output.end(resolve));
		const last = recent.trim() || '(n8n wrote nothing)';
		throw new Error(`${(error as Error).message}\n--- last output of n8n (${logFile}) ---\n${last}`);
	}
	return { url, process: child, stop };
}
