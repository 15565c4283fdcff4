import './env';

import { forgetHeldTokens } from '../../nodes/common/transport/session';
import type { BankFixture } from '../../test/engine/harness/bankFixture';
import { API } from '../../test/engine/harness/bankFixture';
import { rl } from '../../test/engine/harness/nodeParameters';
import type { NodeRun } from '../../test/engine/harness/runNode';
import { runNode } from '../../test/engine/harness/runNode';
import { timed } from './stats';

export { startBankFixture } from '../../test/engine/harness/bankFixture';
export type { BankFixture };

/** Runs the BaaS node with the API-client credential through n8n-core's WorkflowExecute. */
export async function runBaas(fx: BankFixture, parameters: Record<string, unknown>, items: object[]): Promise<NodeRun> {
	return await runNode(fx.credentials, {
		parameters: { authentication: 'apiClient', ...parameters },
		credentials: API,
		items: items as never,
	});
}

/**
 * Forgets the token, so the next run pays for one token request as the plain contenders do: the one n8n stores
 * with the credential, and the one the node holds for its n8n process (transport/session.ts).
 */
export function forgetToken(fx: BankFixture) {
	forgetHeldTokens();
	const stored = fx.credentials.stored(API.baasApi)!;
	fx.credentials.add(API.baasApi, 'baasApi', { ...stored, accessToken: '' });
}

export { rl };

/**
 * Empties the bank's request log and returns where a run's requests start in it. The log keeps the last 50,000
 * requests only, so a run counted after that many (benchmark 5 after 1 and 2) would count none without this.
 */
export async function startRequestLog(fx: BankFixture): Promise<number> {
	await fetch(`${fx.bank.url}/__sandbox/requests/clear`, { method: 'POST' });
	return fx.bank.requests().length;
}

/**
 * One timed run of the BaaS node as a new execution of a new credential (it pays for one token request);
 * `from` is where its requests start in the bank's log.
 */
export async function timedFreshRun(fx: BankFixture, parameters: Record<string, unknown>, items: object[]) {
	forgetToken(fx);
	const from = await startRequestLog(fx);
	const { ms, value: run } = await timed(() => runBaas(fx, parameters, items));
	return { ms, run, from };
}

/** Requests the bank received whose path ends with `suffix` since index `from` of its request log. */
export function requestsSince(fx: BankFixture, from: number, suffix: string): number {
	return fx.bank
		.requests()
		.slice(from)
		.filter((entry) => entry.path.endsWith(suffix)).length;
}
