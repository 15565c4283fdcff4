/** The HTTP front: body reading, faults, route lookup, auth, validation, envelope, request log. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, DEFAULT_MESSAGES, failure, httpStatusFor, success, type Envelope } from './envelope';
import type { RouteDef } from './routeDefinition';
import { handleControl } from '../routes/control';
import { chatPage } from '../runtime/chat';
import type { Runtime } from '../runtime/runtime';
import { iso } from '../data/time';
import { parse } from './requestValidation';
import { isListPath } from '../runtime/listQuota';

const MAX_BODY_BYTES = 1024 * 1024;

function send(res: ServerResponse, status: number, body: Envelope, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(text)),
		...headers,
	});
	res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				resolve(undefined);
				req.removeAllListeners('data');
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Empty body = {} (the contract's "no body required"); anything else must be a JSON object. */
function parseJson(raw: Buffer): unknown {
	const text = raw.toString('utf8').trim();
	if (!text) return {};
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new ApiError('99', 'body: must be valid JSON');
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError('99', 'body: must be a JSON object');
	return value;
}

/** Bearer header; dashboard routes also accept the access_token cookie that login sets. */
function tokenOf(req: IncomingMessage, auth: 'api' | 'web'): string | undefined {
	const header = req.headers.authorization;
	if (header) {
		const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
		return m ? m[1] : undefined;
	}
	if (auth === 'web') {
		const cookie = /(?:^|;\s*)access_token=([^;]+)/.exec(req.headers.cookie ?? '');
		if (cookie) return cookie[1];
	}
	return undefined;
}

export function createHandler(rt: Runtime, routes: RouteDef[]) {
	const byPath = new Map(routes.map((r) => [r.path, r]));

	async function contract(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer): Promise<void> {
		const started = Date.now();
		const method = req.method ?? 'GET';
		const finish = (status: number, code: string) => {
			rt.recordRequest({ at: iso(started), method, path, status, response_code: code, ms: Date.now() - started });
			rt.log(`${method} ${path} -> ${status || 'dropped'} ${code} (${Date.now() - started} ms)`);
		};
		const reply = (status: number, body: Envelope, headers?: Record<string, string>) => {
			send(res, status, body, headers);
			finish(status, body.response_code);
		};
		const drop = () => {
			req.socket.destroy();
			finish(0, '');
		};

		const tooMany = (after: number) =>
			reply(429, failure('29', `Too many requests: retry after ${after} seconds`), { 'Retry-After': String(after) });

		const fx = rt.faults.forRequest(path);
		if (fx.latencyMs > 0 && !(await rt.timers.sleep(fx.latencyMs))) {
			req.socket.destroy(); // the sandbox is closing
			return;
		}
		if (fx.drop === 'before') return drop();
		if (fx.rateLimit) return tooMany(fx.rateLimit.retryAfterSeconds);
		if (fx.errorCode) {
			const message = DEFAULT_MESSAGES[fx.errorCode] ?? 'Error';
			const echoed = fx.echoAuthorization ? `${message} (received Authorization: ${req.headers.authorization ?? 'none'})` : message;
			return reply(fx.httpStatus ?? httpStatusFor(fx.errorCode), failure(fx.errorCode, echoed));
		}

		const quotaWait = isListPath(path) && byPath.has(path) ? rt.listQuota.admit(Date.now()) : undefined;
		if (quotaWait !== undefined) return tooMany(quotaWait);

		let outcome: { status: number; body: Envelope; headers?: Record<string, string> };
		let afterServed: (() => void) | undefined;
		try {
			const route = byPath.get(path);
			if (!route) throw new ApiError('99', `No such endpoint: ${path}`, 404);
			if (route.method !== method) {
				throw new ApiError('99', `Method ${method} not allowed on ${path}; use ${route.method}`, 405, { Allow: route.method });
			}
			const now = Date.now();
			const principal = route.auth === 'none' ? undefined : rt.auth.verify(tokenOf(req, route.auth), route.auth, now);
			const body = parse(route.schema, parseJson(raw));
			const result = route.handler({ rt, body, now, principal });
			outcome = { status: 200, body: success(result.data, result.message), headers: result.headers };
			afterServed = result.afterServed;
		} catch (err) {
			if (err instanceof ApiError) {
				outcome = { status: err.httpStatus, body: failure(err.code, err.message), headers: err.headers };
			} else {
				rt.log(`internal error on ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
				outcome = { status: 500, body: failure('99', 'Internal sandbox error') };
			}
		}
		// "after": the state change (if any) has happened, but the caller never hears about it.
		if (fx.drop === 'after') return drop();
		if (fx.drop === 'midAnswer' || fx.stallAnswer) {
			// The caller gets the headers and half the answer: the connection then drops, or goes quiet.
			const text = JSON.stringify(outcome.body);
			res.writeHead(outcome.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), ...outcome.headers });
			const half = text.slice(0, Math.floor(text.length / 2));
			if (fx.drop === 'midAnswer') res.write(half, drop);
			else res.write(half, () => finish(0, ''));
			return;
		}
		reply(outcome.status, outcome.body, outcome.headers);
		afterServed?.();
	}

	function control(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer): void {
		// A browser opening the chat inbox gets a page; a client asking for JSON (n8n, curl, tests) the envelope.
		if (req.method === 'GET' && path.replace(/\/+$/, '') === '/__sandbox/chat' && /text\/html/.test(req.headers.accept ?? '')) {
			const page = chatPage(rt.chat.list());
			res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(page)) });
			res.end(page);
			return;
		}
		try {
			const body = req.method === 'GET' || req.method === 'DELETE' ? {} : parseJson(raw);
			const out = handleControl(rt, req.method ?? 'GET', path, body);
			send(res, out.status, out.body);
		} catch (err) {
			if (err instanceof ApiError) {
				send(res, err.httpStatus === 200 ? 400 : err.httpStatus, failure(err.code, err.message));
			} else {
				rt.log(`internal error on ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
				send(res, 500, failure('99', `Internal sandbox error: ${err instanceof Error ? err.message : String(err)}`));
			}
		}
	}

	return (req: IncomingMessage, res: ServerResponse): void => {
		const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
		readBody(req)
			.then(async (raw) => {
				if (raw === undefined) {
					send(res, 413, failure('99', `body: larger than ${MAX_BODY_BYTES} bytes`), { Connection: 'close' });
					return;
				}
				if (path === '/' || path.startsWith('/__sandbox/')) {
					control(req, res, path === '/' ? '/__sandbox/seed' : path, raw);
					return;
				}
				await contract(req, res, path, raw);
			})
			.catch((err: unknown) => {
				rt.log(`request failed: ${err instanceof Error ? err.message : String(err)}`);
				res.destroy();
			});
	};
}
