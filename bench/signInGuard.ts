/**
 * The sign-in guard's memory (nodes/common/transport/signInGuard.ts, issue 34, item 7): heap before, after 600
 * client IDs each refused once through the credential's Test path (the bank answering a 40 KB refusal), and
 * after their window is over and the guard has been called once more. Target: back within 1 MB of before.
 * Run: node --expose-gc --import tsx bench/signInGuard.ts (the window is shortened to 2 s here).
 */
import type { IHttpRequestHelper } from 'n8n-workflow';

import * as guard from '../nodes/common/transport/signInGuard';
import { forgetHeldTokens, SIGN_IN_LIMITS, testSignIn } from '../nodes/common/transport/session';

const IDENTITIES = 600;
const REASON_BYTES = 40_000;
SIGN_IN_LIMITS.pauseMs = 2_000;

/** A bank that refuses every sign-in with a long message, or signs in `good-…` client IDs. */
const bank = {
	helpers: {
		httpRequest: async ({ body }: { body: { client_id: string } }) =>
			body.client_id.startsWith('good-')
				? { statusCode: 200, body: { status: true, response_code: '00', data: { token: 'eyJa.b.c', expires_in: 600 } } }
				: { statusCode: 401, body: { status: false, response_code: '41', message: `Invalid client credentials ${'x'.repeat(REASON_BYTES)}` } },
	},
} as unknown as IHttpRequestHelper;

const testOf = (clientId: string) =>
	testSignIn(bank, 'api', { baseUrl: 'https://bank.example', clientId, clientSecret: `secret-of-${clientId}` }, `BaaS API ${clientId}`).catch(() => undefined);

function heapMb(): number {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('Run with node --expose-gc');
	gc();
	gc();
	return process.memoryUsage().heapUsed / 1e6;
}

const size = () => ('signInGuardSize' in guard ? (guard as { signInGuardSize: () => number }).signInGuardSize() : 'n/a');

void (async () => {
	await testOf('warm-up');
	forgetHeldTokens();
	const before = heapMb();
	let largest = 0;
	for (let i = 0; i < IDENTITIES; i++) {
		await testOf(`client-${i}`);
		const now = size();
		if (typeof now === 'number') largest = Math.max(largest, now);
	}
	const refused = heapMb();
	process.stdout.write(`# sign-in guard, ${IDENTITIES} client IDs refused once each (${REASON_BYTES / 1000} KB refusals)\n`);
	process.stdout.write(`heap before:            ${before.toFixed(2)} MB\n`);
	process.stdout.write(`after the refusals:     ${refused.toFixed(2)} MB (+${(refused - before).toFixed(2)}), guard records ${size()}, at most ${largest || 'n/a'}\n`);
	await new Promise((resolve) => setTimeout(resolve, SIGN_IN_LIMITS.pauseMs + 100));
	await testOf('good-after-the-window');
	const after = heapMb();
	const growth = after - before;
	process.stdout.write(`after the window:       ${after.toFixed(2)} MB (+${growth.toFixed(2)}), guard records ${size()}\n`);
	process.stdout.write(`target: back within 1 MB: ${growth <= 1 ? 'MET' : 'NOT MET'}\n`);
})();
