/**
 * A stand-in for a language model, for the sandbox only: an OpenAI-compatible `POST /v1/chat/completions` (and
 * `GET /v1/models`, which n8n's credential test calls) answered by a small scripted planner (planner.ts). It lets
 * the treasury assistant example run with no model account; it is not shipped and is no language model.
 *
 * Tests drive it exactly: replies queued with `POST /__model/replies` are given first, in order; what each
 * request carried is kept for `GET /__model/requests`; `POST /__model/reset` forgets both. A queued reply may hold
 * several tool calls, as real models answer (parallel tool calls); a request with `parallel_tool_calls: false` gets
 * them one per answer, the rest given next, as OpenAI's models do with that switch.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { CompletionRequest, Reply } from './openai';
import { completion, completionEvents, STAND_IN_MODEL_ID } from './openai';
import { plan } from './planner';

export type { Reply } from './openai';

export interface StandInModel {
	/** The server's root, e.g. http://127.0.0.1:4011. */
	url: string;
	/** What n8n's OpenAI credential takes as Base URL: `${url}/v1`. */
	baseUrl: string;
	/** Queues replies given before the planner's, in order. */
	queue(...replies: Reply[]): void;
	/** The completion requests received, oldest first, with the reply each got. */
	requests(): Array<{ request: CompletionRequest; reply: Reply; scripted: boolean }>;
	reset(): void;
	close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
	res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8').trim();
	return text ? JSON.parse(text) : {};
}

const isReply = (value: unknown): value is Reply =>
	typeof value === 'object' && value !== null && (typeof (value as { content?: unknown }).content === 'string' || Array.isArray((value as { tool_calls?: unknown }).tool_calls));

/** With parallel tool calls off, a reply of several calls gives its first now and queues the others next. */
function oneAtATimeIn(queued: Reply[]) {
	return (request: CompletionRequest, reply: Reply | undefined): Reply | undefined => {
		if (!reply || !('tool_calls' in reply) || reply.tool_calls.length < 2 || request.parallel_tool_calls !== false) return reply;
		const [first, ...rest] = reply.tool_calls;
		queued.unshift({ tool_calls: rest });
		return { tool_calls: [first] };
	};
}

export async function startStandInModel(options: { port?: number; host?: string } = {}): Promise<StandInModel> {
	const queued: Reply[] = [];
	const log: Array<{ request: CompletionRequest; reply: Reply; scripted: boolean }> = [];
	const oneAtATime = oneAtATimeIn(queued);

	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
		if (req.method === 'GET' && path === '/v1/models') {
			return json(res, 200, { object: 'list', data: [{ id: STAND_IN_MODEL_ID, object: 'model', created: 0, owned_by: 'n8n-nodes-baas sandbox (a stand-in, not a model)' }] });
		}
		if (req.method === 'POST' && path === '/v1/chat/completions') {
			const request = (await readJson(req)) as CompletionRequest;
			const scripted = queued.length > 0;
			const reply = oneAtATime(request, queued.shift()) ?? plan(request);
			log.push({ request, reply, scripted });
			if (!request.stream) return json(res, 200, completion(reply));
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
			for (const event of completionEvents(reply)) res.write(event);
			return res.end();
		}
		if (req.method === 'POST' && path === '/__model/replies') {
			const body = (await readJson(req)) as { replies?: unknown };
			const replies = Array.isArray(body.replies) ? body.replies : [];
			if (!replies.every(isReply)) return json(res, 400, { error: 'replies: each is { content } or { tool_calls: [{ name, arguments }] }' });
			queued.push(...replies);
			return json(res, 200, { queued: queued.length });
		}
		if (req.method === 'GET' && path === '/__model/requests') return json(res, 200, { requests: log });
		if (req.method === 'POST' && path === '/__model/reset') {
			queued.length = 0;
			log.length = 0;
			return json(res, 200, { reset: true });
		}
		return json(res, 404, { error: { message: `The stand-in model has no ${req.method} ${path}`, type: 'invalid_request_error' } });
	};

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error: Error) => json(res, 400, { error: { message: error.message, type: 'invalid_request_error' } }));
	});
	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const url = `http://${host}:${(server.address() as AddressInfo).port}`;
	return {
		url,
		baseUrl: `${url}/v1`,
		queue: (...replies) => void queued.push(...replies),
		requests: () => [...log],
		reset: () => {
			queued.length = 0;
			log.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
