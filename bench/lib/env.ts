// Imported first by every benchmark: n8n-core writes instance settings under N8N_USER_FOLDER, and logs stay quiet.
import Module from 'node:module';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= path.resolve(__dirname, '../../.n8n-test');
process.env.N8N_LOG_LEVEL ??= 'silent';

// `import … from './Baas.node'` means Baas.node.ts, but Node's resolver tries `.json` before tsx's `.ts` and
// finds the codex Baas.node.json beside it. Jest prefers .ts; here the same is done for `*.node` requests.
const resolver = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const original = resolver._resolveFilename;
resolver._resolveFilename = function (request: string, ...rest: unknown[]) {
	if (request.endsWith('.node') && request.startsWith('.')) {
		try {
			return original.call(this, `${request}.ts`, ...rest);
		} catch {
			// not a TypeScript node file: fall through to Node's own resolution
		}
	}
	return original.call(this, request, ...rest);
};
