/** The members of express's request and response that n8n's webhook handling and the BaaS Trigger use, on Node's own. */
import type http from 'node:http';

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** Adds to Node's request/response the members of express's that n8n and the trigger use. */
export function asExpress(req: http.IncomingMessage, res: http.ServerResponse) {
	const request = req as http.IncomingMessage & { body?: unknown; query: object; params: object };
	request.readRawBody = async () => {
		if (!request.rawBody) {
			request.rawBody = await readAll(req);
			request._body = true;
		}
	};
	request.contentType = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
	request.query = {};
	request.params = {};
	const response = res as http.ServerResponse & {
		status(code: number): typeof response;
		json(body: unknown): typeof response;
		send(body: unknown): typeof response;
	};
	response.status = (code: number) => {
		res.statusCode = code;
		return response;
	};
	response.json = (body: unknown) => {
		if (!res.headersSent) res.setHeader('content-type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return response;
	};
	response.send = (body: unknown) => (typeof body === 'string' || Buffer.isBuffer(body) ? (res.end(body), response) : response.json(body));
	return { request, response };
}
