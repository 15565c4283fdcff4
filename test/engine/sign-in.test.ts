import type { IDataObject } from 'n8n-workflow';

import { clearSignInGuard, forgetHeldTokens } from '../../nodes/common/transport/session';
import { API, DASHBOARD, startBankFixture, useBankFixture } from './harness/bankFixture';
import type { RunNodeOptions } from './harness/runNode';
import { runNode } from './harness/runNode';

const fx = useBankFixture();

const GET_BALANCE = { resource: 'account', operation: 'getBalance' };
const MODES: Array<RunNodeOptions['continueOnFail']> = [false, true, 'errorOutput'];
const SIGN_IN = { baasApi: '/generate_token', baasDashboardApi: '/auth/web/login' };

function accounts(n: number): IDataObject[] {
	const numbers = fx.bank.seed.accounts.filter((a) => a.status === 'active').map((a) => a.account_number);
	return Array.from({ length: n }, (_, i) => ({ account: numbers[i % numbers.length] }));
}

function balances(type: 'baasApi' | 'baasDashboardApi', id: string, items: IDataObject[], continueOnFail: RunNodeOptions['continueOnFail'], concurrency = 5) {
	return runNode(fx.credentials, {
		parameters: {
			authentication: type === 'baasApi' ? 'apiClient' : 'dashboardUser',
			...GET_BALANCE,
			accountNumber: '={{ $json.account }}',
			options: { concurrency },
		},
		credentials: { [type]: id },
		items,
		continueOnFail,
	});
}

describe('a refused sign-in is not repeated (no lockout)', () => {
	beforeAll(() => {
		fx.credentials.add('api-wrong', 'baasApi', { ...fx.credentials.stored('api-1')!, clientSecret: 'wrong-secret-Lk42' });
		fx.credentials.add('web-wrong', 'baasDashboardApi', { ...fx.credentials.stored('web-1')!, password: 'wrong-pass-Lk42' });
	});

	for (const [type, id] of [
		['baasApi', 'api-wrong'],
		['baasDashboardApi', 'web-wrong'],
	] as const) {
		for (const count of [8, 50]) {
			for (const mode of MODES) {
				test(`${type}, ${count} items, on error ${String(mode)}, concurrency 5 and 20: one sign-in, no lockout, every item the same clear error`, async () => {
					for (const concurrency of [5, 20]) {
						fx.bank.reset();
						// A refusal is remembered by the process (sign-in-guard.test.ts): each run starts from none.
						clearSignInGuard();
						const run = await balances(type, id, accounts(count), mode, concurrency);
						expect(fx.count(SIGN_IN[type])).toBe(1);
						expect(fx.bank.requests().filter((r) => r.status === 423)).toHaveLength(0);
						expect(fx.count('get_account_balance')).toBe(0);
						if (mode === false) {
							expect(run.error).toMatchObject({ name: 'NodeApiError', context: { kind: 'signInRefused', responseCode: '41' } });
							continue;
						}
						const failed = mode === 'errorOutput' ? run.errorItems : run.items;
						expect(failed).toHaveLength(count);
						const messages = new Set(failed.map((item) => String(item.json.error)));
						expect(messages.size).toBe(1);
						expect([...messages][0]).toMatch(/The bank refused to sign in: Invalid .* \[41\]/);
						expect(failed.map((item) => item.pairedItem)).toEqual(failed.map((_, item) => ({ item })));
					}
					// The right credential still works: the identity was never locked.
					const good = await balances(type, type === 'baasApi' ? API.baasApi : DASHBOARD.baasDashboardApi, accounts(1), false);
					expect(good.error).toBeUndefined();
				});
			}
		}
	}

	test('executions running at the same time with the wrong secret: one sign-in in all', async () => {
		fx.bank.reset();
		clearSignInGuard();
		await Promise.all([1, 2, 3].map(() => balances('baasApi', 'api-wrong', accounts(20), true, 20)));
		expect(fx.count('/generate_token')).toBe(1);
		expect(fx.bank.requests().filter((r) => r.status === 423)).toHaveLength(0);
	});

	test('the next execution does not ask the bank again with the refused secret; a corrected one signs in at once', async () => {
		fx.bank.reset();
		clearSignInGuard();
		await balances('baasApi', 'api-wrong', accounts(3), true);
		await balances('baasApi', 'api-wrong', accounts(3), true);
		expect(fx.count('/generate_token')).toBe(1);
		fx.credentials.add('api-corrected', 'baasApi', { ...fx.credentials.stored('api-1')! });
		forgetHeldTokens();
		expect((await balances('baasApi', 'api-corrected', accounts(1), false)).error).toBeUndefined();
		expect(fx.count('/generate_token')).toBe(2);
	});
});

describe('a token goes only to the Base URL it was issued for', () => {
	test('a changed Base URL signs in at the new bank before anything is sent there', async () => {
		const other = await startBankFixture();
		try {
			await balances('baasApi', API.baasApi, accounts(2), false);
			fx.credentials.add('api-moved', 'baasApi', { ...fx.credentials.stored('api-1')!, baseUrl: other.bank.url });
			const run = await balances('baasApi', 'api-moved', [{ account: other.bank.seed.poolAccountNumber }], false);
			expect(run.error).toBeUndefined();
			const seen = other.bank.requests().map((r) => r.path);
			expect(seen[0]).toMatch(/\/generate_token$/);
			expect(other.bank.requests().filter((r) => r.response_code === '41')).toHaveLength(0);
		} finally {
			await other.bank.close();
		}
	});
});

describe('a token the bank calls expired (42) at any HTTP status', () => {
	test.each([200, 401])('HTTP %s: a read gets one fresh token and one retry, and succeeds', async (httpStatus) => {
		await balances('baasApi', API.baasApi, accounts(1), false);
		const tokensBefore = fx.count('/generate_token');
		const readsBefore = fx.count('get_account_balance');
		fx.bank.addFault({ match: 'get_account_balance', errorCode: '42', httpStatus, times: 1 });
		const run = await balances('baasApi', API.baasApi, accounts(1), false);
		expect(run.error).toBeUndefined();
		expect(run.json[0].balance).toBeDefined();
		expect(fx.count('/generate_token') - tokensBefore).toBe(1);
		expect(fx.count('get_account_balance') - readsBefore).toBe(2);
	});

	test('a write is not re-sent: the item says nothing was done, and the next item has a fresh token', async () => {
		await balances('baasApi', API.baasApi, accounts(1), false);
		const sendsBefore = fx.count('/create_webhook');
		fx.bank.addFault({ match: 'create_webhook', errorCode: '42', httpStatus: 200, times: 1 });
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'webhook', operation: 'create', url: '={{ $json.url }}', events: ['TRANSFER_SUCCESS'] },
			credentials: API,
			items: [{ url: 'https://hooks.example.com/expired-1' }, { url: 'https://hooks.example.com/expired-2' }],
			continueOnFail: true,
		});
		expect(fx.count('/create_webhook') - sendsBefore).toBe(2);
		expect(run.json[0]).toMatchObject({ response_code: '42' });
		expect(String(run.json[0].description)).toMatch(/nothing was done/);
		expect(run.json[1]).toMatchObject({ url: 'https://hooks.example.com/expired-2' });
	});
});

describe('Session → Verify with a given token', () => {
	test('a refused given token is not taken for an expired session: no new sign-in', async () => {
		await balances('baasDashboardApi', DASHBOARD.baasDashboardApi, accounts(1), false);
		const loginsBefore = fx.count('/auth/web/login');
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'dashboardUser', resource: 'session', operation: 'verify', token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' },
			credentials: DASHBOARD,
			items: [{}, {}, {}],
			continueOnFail: true,
		});
		expect(run.json.map((item) => item.response_code)).toEqual(['41', '41', '41']);
		expect(fx.count('/auth/web/login') - loginsBefore).toBe(0);
	});
});

describe('tokens live per n8n process, not per execution', () => {
	test('the credential is read once per execution, not per request', async () => {
		const before = fx.credentials.decryptions;
		const run = await balances('baasApi', API.baasApi, accounts(30), false, 5);
		expect(run.json).toHaveLength(30);
		expect(fx.credentials.decryptions - before).toBe(1);
	});

	test('ten executions of one credential cost one sign-in', async () => {
		forgetHeldTokens();
		const before = fx.count('/auth/web/login');
		for (let i = 0; i < 10; i++) expect((await balances('baasDashboardApi', DASHBOARD.baasDashboardApi, accounts(3), false)).error).toBeUndefined();
		expect(fx.count('/auth/web/login') - before).toBe(1);
	});
});
