/**
 * Runs once before any e2e or queue file, in jest's main process: what every file would otherwise do for itself,
 * and must not do at once when files run in parallel workers. It builds and packs the package once (the files
 * install that tarball: BAAS_PACKED_TARBALL), installs the n8n lines the suite runs if this machine lacks them,
 * and picks a base of free ports for the suite (BAAS_E2E_PORT_BASE or BAAS_QUEUE_PORT_BASE, unless given), each
 * jest worker then taking its own 100 ports above it (test/e2e/workerPorts.ts). Workers start after this and
 * inherit the environment it sets.
 */
import type { Config } from '@jest/types';

import { ensureN8n, packPackage, PACKED_TARBALL_ENV } from '../../scripts/n8n/install';
import { LINES } from '../../scripts/n8n/paths';
import { freePortBase } from '../../scripts/n8n/ports';

const PORTS_PER_WORKER = 100;

export default async function globalSetup(globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig) {
	const queue = projectConfig.displayName?.name === 'queue';
	const log = (line: string) => process.stdout.write(`[${queue ? 'queue' : 'e2e'} setup] ${line}\n`);
	const started = Date.now();
	process.stdout.write('\n');
	const lines = queue ? [LINES['2']] : [LINES['1'], LINES['2']];
	const [tarball] = await Promise.all([packPackage(log), ...lines.map(async (line) => await ensureN8n(line, log))]);
	process.env[PACKED_TARBALL_ENV] = tarball;
	const portBase = queue ? 'BAAS_QUEUE_PORT_BASE' : 'BAAS_E2E_PORT_BASE';
	if (!process.env[portBase]) {
		const workers = globalConfig.maxWorkers;
		process.env[portBase] = String(await freePortBase(PORTS_PER_WORKER * (queue ? 1 : workers)));
	}
	log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${tarball}, n8n ${lines.map((line) => line.version).join(' and ')}, ${portBase}=${process.env[portBase]}`);
}
