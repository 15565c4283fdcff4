/**
 * n8n's own HTTP Request node, loaded from the n8n that the e2e suite installs once per machine
 * (~/.cache/n8n-nodes-baas/n8n/<version>, or BAAS_N8N_CACHE), into this repository's n8n-core engine.
 */
import { existsSync, readdirSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { HOST_CACHE_DIR, LINES } from '../../scripts/n8n/paths';

/** The n8n-nodes-base folder of an installed n8n, newest line first; undefined when none is installed. */
export function findNodesBase(): string | undefined {
	if (process.env.BENCH_N8N_NODES_BASE) return process.env.BENCH_N8N_NODES_BASE;
	const root = path.join(HOST_CACHE_DIR, 'n8n');
	const versions = [LINES['2'].version, LINES['1'].version];
	for (const version of versions) {
		const folder = path.join(root, version);
		if (existsSync(path.join(folder, '.installed'))) return path.join(folder, 'node_modules', 'n8n-nodes-base');
	}
	// An install still being built elsewhere is complete enough once the node file is there.
	for (const entry of existsSync(root) ? readdirSync(root) : []) {
		const candidate = path.join(root, entry, 'node_modules', 'n8n-nodes-base');
		if (existsSync(path.join(candidate, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js'))) return candidate;
	}
	return undefined;
}

/**
 * Loads the versioned HTTP Request node. Its requires of n8n-workflow and n8n-core are answered with this
 * repository's copies, so the engine sees one n8n-workflow (two copies break its error classes).
 */
export function loadHttpRequestNode(nodesBase: string): IVersionedNodeType {
	const resolver = Module as unknown as { _resolveFilename: (request: string, parent?: { filename?: string }, ...rest: unknown[]) => string };
	const original = resolver._resolveFilename;
	const ours = path.resolve(__dirname, '../..');
	const hostRoot = path.resolve(nodesBase, '..', '..');
	resolver._resolveFilename = function (request, parent, ...rest) {
		if ((request === 'n8n-workflow' || request === 'n8n-core') && parent?.filename?.startsWith(hostRoot)) {
			return require.resolve(request, { paths: [ours] });
		}
		return original.call(this, request, parent, ...rest);
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const loaded = require(path.join(nodesBase, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js')) as {
		HttpRequest: new () => IVersionedNodeType | INodeType;
	};
	return new loaded.HttpRequest() as IVersionedNodeType;
}
