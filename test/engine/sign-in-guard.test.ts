/**
 * Issue 27, item 2: one sign-in guard per n8n process, for every node, trigger and the credential's Test. The
 * bank locks an identity (client ID or e-mail) after 5 refused sign-ins in 15 minutes (the sandbox, as the design
 * says); however many executions, tests and polls run with wrong secrets, and however often the secret is
 * edited to other wrong values, this process must never get there, and a fixed credential must work at once
 * unless the identity has used up its refusals.
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetHeldTokens, SIGN_IN_LIMITS } from '../../nodes/common/transport/session';
import { storeApiCredential, useBankFixture } from './harness/bankFixture';
import { testCredential } from './harness/credentialTest';
import { fakeClock, PollingWorkflow } from './harness/pollWorkflow';
import { runNode } from './harness/runNode';
import { reportFigures } from './reliability/scale';

const fx = useBankFixture({ transactions: 0 }, (started) => {
	fakeClock.stop();
	// Tokens are held by credential values, whichever credential got them: each test starts with none.
	forgetHeldTokens();
	started.bank.reset();
});

const MINUTE = 60_000;
let executions = 0;

const API_SIGN_IN = '/generate_token';
const refused = () => fx.bank.requests().filter((r) => (r.path.endsWith(API_SIGN_IN) || r.path.endsWith('/auth/web/login')) && r.response_code === '41');
const lockouts = () => fx.bank.requests().filter((r) => r.status === 423).length;

const saveApiCredential = (id: string, clientSecret: string) => storeApiCredential(fx, id, clientSecret);

/** One manual execution of BaaS → Account → Get Balance with its own execution id, as n8n runs each. */
function execution(id: string, items = 3, type: 'baasApi' | 'baasDashboardApi' = 'baasApi') {
	const account = fx.bank.seed.accounts.find((a) => a.status === 'active')!.account_number;
	return runNode(fx.credentials, {
		parameters: {
			authentication: type === 'baasApi' ? 'apiClient' : 'dashboardUser',
			resource: 'account',
			operation: 'getBalance',
			accountNumber: account,
		},
		credentials: { [type]: id },
		items: Array.from({ length: items }, () => ({})),
		continueOnFail: true,
		executionId: `exec-${++executions}`,
	});
}

const firstError = (run: Awaited<ReturnType<typeof execution>>) => String((run.json[0] as IDataObject | undefined)?.error ?? run.error?.message ?? '');

describe('one wrong secret: executions, credential tests and scheduled polls reach the bank once (issue 27, item 2)', () => {
	test('20 executions, 10 Tests and 10 scheduled polls: 1 refused sign-in, 0 lockouts; the fixed secret works at once everywhere', async () => {
		saveApiCredential('typo', 'mistyped-Secret-1');
		const poll = new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ['COLLECTION_SUCCESS'] }, { baasApi: 'typo' }, 'wf-guard');
		const errors = new Set<string>();
		for (let round = 0; round < 10; round++) {
			for (const run of [await execution('typo'), await execution('typo')]) {
				expect(run.json).toHaveLength(3);
				errors.add(firstError(run));
			}
			const tested = await testCredential(fx.credentials, 'baasApi', 'typo', { name: 'BaaS API (typo)' });
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(/Invalid client credentials \[41\]/);
			const polled = await poll.poll();
			expect(polled.error?.message).toMatch(/refused/);
		}
		const refusedCount = refused().length;
		reportFigures('sign-in guard, one wrong secret', {
			executions: 20,
			credential_tests: 10,
			scheduled_polls: 10,
			refused_sign_ins_at_bank: refusedCount,
			lockouts: lockouts(),
		});
		expect(refusedCount).toBe(1);
		expect(lockouts()).toBe(0);
		// Every execution says the same thing: who was refused, when it may be tried again, and never the secret.
		for (const error of errors) {
			expect(error).toMatch(/The bank refused to sign in: Invalid client credentials \[41\]/);
			expect(error).toContain(`client ID ${fx.bank.seed.clientId}`);
			expect(error).toContain('"baasApi typo"');
			expect(error).toMatch(/not tried again until \d\d:\d\d UTC/);
			expect(error).not.toContain('mistyped-Secret-1');
		}

		saveApiCredential('typo', fx.bank.seed.clientSecret);
		expect((await execution('typo')).json[0]).not.toHaveProperty('error');
		expect((await testCredential(fx.credentials, 'baasApi', 'typo')).status).toBe('OK');
		expect((await poll.poll()).error).toBeUndefined();
		expect(lockouts()).toBe(0);
	});

	test('the dashboard credential: 20 executions and 10 Tests with a wrong password make 1 refused login', async () => {
		fx.credentials.add('web-typo', 'baasDashboardApi', { baseUrl: fx.bank.url, email: fx.bank.seed.dashboardEmail, password: 'wrong-Pass-2', accessToken: '' });
		for (let i = 0; i < 20; i++) expect(firstError(await execution('web-typo', 2, 'baasDashboardApi'))).toMatch(/Invalid email or password \[41\]/);
		for (let i = 0; i < 10; i++) expect((await testCredential(fx.credentials, 'baasDashboardApi', 'web-typo')).status).toBe('Error');
		expect(refused()).toHaveLength(1);
		expect(lockouts()).toBe(0);
	});
});

describe('a secret edited to one wrong value after another (issue 27, item 2)', () => {
	test(`at most ${SIGN_IN_LIMITS.refusalsPerIdentity} refusals reach the bank per 15 minutes, whatever the secret; then the next try waits, and says until when`, async () => {
		fakeClock.start();
		const start = Date.now();
		for (let edit = 1; edit <= 8; edit++) {
			saveApiCredential('edited', `wrong-Secret-${edit}`);
			for (let i = 0; i < 3; i++) await execution('edited');
			await testCredential(fx.credentials, 'baasApi', 'edited');
			fakeClock.advance(30_000);
		}
		const refusedCount = refused().length;
		reportFigures('sign-in guard, secret edited to 8 wrong values in 4 minutes', {
			sign_in_attempts_allowed: SIGN_IN_LIMITS.refusalsPerIdentity,
			refused_sign_ins_at_bank: refusedCount,
			lockouts: lockouts(),
		});
		expect(refusedCount).toBe(SIGN_IN_LIMITS.refusalsPerIdentity);
		expect(lockouts()).toBe(0);

		// Now the right secret: the identity has used its refusals, so nothing is sent, and the error says why and until when.
		saveApiCredential('edited', fx.bank.seed.clientSecret);
		const waiting = firstError(await execution('edited'));
		const lastRefusal = start + (SIGN_IN_LIMITS.refusalsPerIdentity - 1) * 30_000;
		const until = new Date(Math.ceil((lastRefusal + SIGN_IN_LIMITS.pauseMs) / MINUTE) * MINUTE).toISOString().slice(11, 16);
		expect(waiting).toContain(`No sign-in for client ID ${fx.bank.seed.clientId} until ${until} UTC`);
		expect(waiting).toContain('"baasApi edited"');
		expect(waiting).not.toMatch(/wrong-Secret/);
		const tested = await testCredential(fx.credentials, 'baasApi', 'edited');
		expect(tested).toMatchObject({ status: 'Error' });
		expect(tested.message).toContain(`until ${until} UTC`);
		expect(refused()).toHaveLength(SIGN_IN_LIMITS.refusalsPerIdentity);

		// After the window, the next run signs in with the credential as saved then.
		fakeClock.advance(SIGN_IN_LIMITS.pauseMs);
		expect((await execution('edited')).json[0]).not.toHaveProperty('error');
		expect(lockouts()).toBe(0);
	});

	test("a refused secret waits 15 minutes from its own refusal, though other secrets were refused after it", async () => {
		fakeClock.start();
		saveApiCredential('first', 'first-wrong-Secret');
		saveApiCredential('second', 'second-wrong-Secret');
		await execution('first');
		fakeClock.advance(10 * MINUTE);
		await execution('second');
		fakeClock.advance(5 * MINUTE);
		expect(refused()).toHaveLength(2);
		// 15 minutes after its refusal, the first secret is asked about again (the identity has 1 refusal left).
		expect(firstError(await execution('first'))).toMatch(/The bank refused to sign in: Invalid client credentials \[41\]/);
		expect(refused()).toHaveLength(3);
		expect(lockouts()).toBe(0);
	});

	test('a correct copy of the credential keeps its held token while the identity waits', async () => {
		fakeClock.start();
		saveApiCredential('good-copy', fx.bank.seed.clientSecret);
		expect((await execution('good-copy')).json[0]).not.toHaveProperty('error');
		const signInsBefore = fx.count(API_SIGN_IN);
		for (let edit = 1; edit <= 5; edit++) {
			saveApiCredential('bad-copy', `stale-Secret-${edit}`);
			await execution('bad-copy');
		}
		expect(fx.count(API_SIGN_IN) - signInsBefore).toBe(SIGN_IN_LIMITS.refusalsPerIdentity);
		for (let i = 0; i < 5; i++) expect((await execution('good-copy')).json[0]).not.toHaveProperty('error');
		expect(lockouts()).toBe(0);
	});

	test('executions with different wrong secrets at the same moment never exceed the limit', async () => {
		fakeClock.start();
		const runs = Array.from({ length: 12 }, (_, i) => {
			saveApiCredential(`parallel-${i}`, `parallel-Secret-${i}`);
			return execution(`parallel-${i}`, 5);
		});
		await Promise.all(runs);
		expect(refused().length).toBeLessThanOrEqual(SIGN_IN_LIMITS.refusalsPerIdentity);
		expect(lockouts()).toBe(0);
	});
});
