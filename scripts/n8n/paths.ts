import os from 'node:os';
import path from 'node:path';

/** What belongs to this clone (its packed tarball, its n8n user folders) lives under .cache/ (ignored by git). */
export const REPO_ROOT = path.resolve(__dirname, '../..');
export const CACHE_DIR = path.join(REPO_ROOT, '.cache');
export const PACK_DIR = path.join(CACHE_DIR, 'pack');
/**
 * n8n itself and the Node runtime it needs are installed once per machine and user, keyed by version, and
 * shared by every clone (and by CI on the same machine): BAAS_N8N_CACHE, or ~/.cache/n8n-nodes-baas.
 */
export const HOST_CACHE_DIR = process.env.BAAS_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-baas');

export interface N8nLine {
	/** Human name, as users say it. */
	name: '1.x' | '2.x';
	version: string;
	/** Node major the line runs on: 1.x on the machine's Node 20, 2.x on Node 24 from the npm registry. */
	nodeMajor: 20 | 24;
	/**
	 * n8n's expression engine. 'vm' (the default of these releases) needs the native isolated-vm, which only
	 * builds on Node 24; on Node 20 n8n must run the 'legacy' engine.
	 */
	expressionEngine: 'legacy' | 'vm';
	/** Native modules built after the install (install scripts are skipped). */
	nativeModules: string[];
	/**
	 * npm overrides for the host install: dependencies n8n names that this machine's registry cannot serve.
	 * xlsx: n8n points at a tarball on a CDN. (2.x is 2.41.1: twenty of 2.41.3's pinned @n8n/* dependencies,
	 * e.g. n8n-core 2.41.2, are not on the registry this machine reaches.)
	 */
	overrides: Record<string, string>;
}

export const LINES: Record<'1' | '2', N8nLine> = {
	'1': { name: '1.x', version: '1.123.81', nodeMajor: 20, expressionEngine: 'legacy', nativeModules: ['sqlite3'], overrides: { xlsx: '0.18.5' } },
	'2': {
		name: '2.x',
		version: '2.41.1',
		nodeMajor: 24,
		expressionEngine: 'vm',
		nativeModules: ['sqlite3', 'isolated-vm'],
		overrides: { xlsx: '0.18.5' },
	},
};

export const NODE24_VERSION = '24';
