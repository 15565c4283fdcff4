/**
 * What a careful programmer writes without n8n: global fetch (keep-alive), one token, a bounded pool.
 * The yardstick the node is measured against.
 */
import type { SandboxHandle } from '../../sandbox';

const V1 = '/api/v1';

export interface PlainClient {
	post(path: string, body: object): Promise<{ status: boolean; response_code: string; data: unknown }>;
}

export async function plainClient(bank: SandboxHandle): Promise<PlainClient> {
	const tokenAnswer = await fetch(`${bank.url}${V1}/security/api/generate_token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: bank.seed.clientId, client_secret: bank.seed.clientSecret }),
	});
	const token = ((await tokenAnswer.json()) as { data: { token: string } }).data.token;
	return {
		async post(path, body) {
			const answer = await fetch(`${bank.url}${V1}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
				body: JSON.stringify(body),
			});
			return (await answer.json()) as { status: boolean; response_code: string; data: unknown };
		},
	};
}

/** Runs task(0..count-1) with at most `limit` in flight. */
export async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}
