import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { testCredential } from './harness/credentialTest';
import { runNode } from './harness/runNode';
import { JWT_SHAPE } from './harness/tokens';
import { forgetHeldTokens } from '../../nodes/common/transport/session';

const GET_BALANCE = { resource: 'account', operation: 'getBalance' };

const fx = useBankFixture();

function ownAccounts(n: number) {
	const numbers = fx.bank.seed.accounts.filter((a) => a.status === 'active').map((a) => a.account_number);
	return Array.from({ length: n }, (_, i) => ({ account: numbers[i % numbers.length] }));
}

describe('tokens', () => {
	test('50 items of Get Balance cost exactly one token request', async () => {
		forgetHeldTokens();
		const tokensBefore = fx.count('/generate_token');
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: '={{ $json.account }}' },
			credentials: API,
			items: ownAccounts(50),
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(50);
		for (const record of run.json) expect(record.balance).toMatch(/^\d+\.\d{9}$/);
		expect(fx.count('/generate_token') - tokensBefore).toBe(1);
		expect(run.items.map((item) => item.pairedItem)).toEqual(ownAccounts(50).map((_, item) => ({ item })));
	});

	test('a token about to expire is renewed before use: one sign-in, no refused request, no failed item', async () => {
		fx.bank.configure({ tokenTtlSeconds: 1 });
		try {
			forgetHeldTokens();
			fx.credentials.add('api-short', 'baasApi', { ...fx.credentials.stored('api-1')!, accessToken: '' });
			await runNode(fx.credentials, {
				parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: fx.bank.seed.poolAccountNumber },
				credentials: { baasApi: 'api-short' },
			});
			const tokensBefore = fx.count('/generate_token');
			await new Promise((resolve) => setTimeout(resolve, 2100));
			const run = await runNode(fx.credentials, {
				parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: '={{ $json.account }}' },
				credentials: { baasApi: 'api-short' },
				items: ownAccounts(1),
			});
			expect(run.error).toBeUndefined();
			expect(run.json).toHaveLength(1);
			expect(run.json[0].balance).toBeDefined();
			expect(fx.count('/generate_token') - tokensBefore).toBe(1);
			const rejected = fx.bank.requests().filter((r) => r.response_code === '42');
			expect(rejected).toHaveLength(0);
		} finally {
			fx.bank.configure({ tokenTtlSeconds: 3600 });
		}
	});

	test('a wrong client secret fails clearly without showing the secret', async () => {
		const secret = 'wrong-secret-Zq81';
		fx.credentials.add('api-wrong', 'baasApi', { ...fx.credentials.stored('api-1')!, clientSecret: secret, accessToken: '' });
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: fx.bank.seed.poolAccountNumber },
			credentials: { baasApi: 'api-wrong' },
		});
		expect(run.error).toBeDefined();
		const everything = JSON.stringify(run.run);
		expect(everything).toMatch(/Invalid client credentials/);
		expect(everything).toMatch(/Client Secret/);
		expect(everything).not.toContain(secret);
	});

	test('the dashboard credential logs in once for many items', async () => {
		forgetHeldTokens();
		const loginsBefore = fx.count('/auth/web/login');
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'dashboardUser', ...GET_BALANCE, accountNumber: '={{ $json.account }}' },
			credentials: DASHBOARD,
			items: ownAccounts(20),
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(20);
		expect(fx.count('/auth/web/login') - loginsBefore).toBe(1);
		expect(fx.count('/account/web/get_account_balance')).toBeGreaterThanOrEqual(20);
	});

	test('no output or error carries a secret or token', async () => {
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'token', operation: 'validate' },
			credentials: API,
		});
		expect(run.json[0]).toMatchObject({ valid: true, client_id: fx.bank.seed.clientId });
		const everything = JSON.stringify(run.run);
		expect(everything).not.toMatch(JWT_SHAPE);
		for (const secret of [fx.bank.seed.clientSecret, fx.bank.seed.webhookSecret]) {
			expect(everything).not.toContain(secret);
		}
	});
});

describe('errors', () => {
	test('status false with HTTP 200 becomes a NodeApiError with its response_code', async () => {
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: fx.bank.seed.foreignAccountNumber },
			credentials: API,
		});
		const last = fx.bank.requests().filter((r) => r.path.endsWith('/account/api/get_account_balance')).pop()!;
		expect(last).toMatchObject({ status: 200, response_code: '83' });
		expect(run.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '83' } });
		expect(run.error!.message).toContain('[83]');
	});

	test('continueOnFail yields an error item per failed input, paired with it', async () => {
		const [good] = ownAccounts(1);
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'dashboardUser', ...GET_BALANCE, accountNumber: '={{ $json.account }}' },
			credentials: DASHBOARD,
			items: [good, { account: fx.bank.seed.foreignAccountNumber }, { account: '12345' }, good],
			continueOnFail: true,
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(4);
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(run.json[0].balance).toBeDefined();
		expect(run.json[1]).toMatchObject({ response_code: '44' });
		expect(String(run.json[1].error)).toContain('[44]');
		expect(String(run.json[2].error)).toMatch(/Account Number must be exactly 10 digits.*item 3/);
		expect(run.json[3].balance).toBeDefined();
	});

	test('"Continue (using error output)" routes failed items to the error output, merged with their input', async () => {
		const [good] = ownAccounts(1);
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'dashboardUser', ...GET_BALANCE, accountNumber: '={{ $json.account }}' },
			credentials: DASHBOARD,
			items: [good, { account: fx.bank.seed.foreignAccountNumber, row: 7 }],
			continueOnFail: 'errorOutput',
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(1);
		expect(run.json[0].balance).toBeDefined();
		expect(run.errorItems).toHaveLength(1);
		expect(run.errorItems[0].json).toMatchObject({ row: 7, account: fx.bank.seed.foreignAccountNumber });
		expect(String(run.errorItems[0].json.error)).toContain('[44]');
		expect(String(run.errorItems[0].json.message)).toMatch(/belongs to your business/);
	});

	test('invalid input sends no request', async () => {
		const before = fx.bank.requests().length;
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: '01234' },
			credentials: API,
		});
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(run.error!.message).toMatch(/Account Number must be exactly 10 digits/);
		expect(fx.bank.requests().length).toBe(before);
	});

	test('a Concurrency that is not a whole number stops the run by name, before any item is sent or dropped', async () => {
		const before = fx.bank.requests().length;
		for (const concurrency of ['={{ "many" }}', '={{ 0 }}']) {
			const run = await runNode(fx.credentials, {
				parameters: {
					authentication: 'apiClient',
					...GET_BALANCE,
					accountNumber: fx.bank.seed.poolAccountNumber,
					options: { concurrency },
				},
				credentials: API,
				items: ownAccounts(3),
			});
			expect(run.error).toMatchObject({ name: 'NodeOperationError' });
			expect(run.error!.message).toMatch(/Concurrency/);
		}
		expect(fx.bank.requests().length).toBe(before);
	});

	test('reads are retried on code 80 and succeed when the provider recovers', async () => {
		const before = fx.count('/account/api/get_account_balance');
		fx.bank.addFault({ match: '/account/api/get_account_balance', errorCode: '80', times: 2 });
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: fx.bank.seed.poolAccountNumber },
			credentials: API,
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0].account_number).toBe(fx.bank.seed.poolAccountNumber);
		expect(fx.count('/account/api/get_account_balance') - before).toBe(3);
	});

	test('reads give up after bounded retries with the bank code', async () => {
		fx.bank.addFault({ match: '/account/api/get_account_balance', errorCode: '80', times: 10 });
		try {
			const before = fx.count('/account/api/get_account_balance');
			const run = await runNode(fx.credentials, {
				parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: fx.bank.seed.poolAccountNumber },
				credentials: API,
			});
			expect(run.error).toMatchObject({ context: { responseCode: '80' } });
			expect(fx.count('/account/api/get_account_balance') - before).toBe(4);
		} finally {
			fx.bank.clearFaults();
		}
	});
	test('a read refused by the rate limit waits its turn longer: past 4 refusals, up to 10 attempts', async () => {
		const path = '/account/api/get_account_balance';
		const read = () =>
			runNode(fx.credentials, {
				parameters: { authentication: 'apiClient', ...GET_BALANCE, accountNumber: fx.bank.seed.poolAccountNumber },
				credentials: API,
			});
		try {
			let before = fx.count(path);
			fx.bank.addFault({ match: path, rateLimit: { retryAfterSeconds: 0 }, times: 6 });
			const recovered = await read();
			expect(recovered.error).toBeUndefined();
			expect(fx.count(path) - before).toBe(7);
			before = fx.count(path);
			fx.bank.addFault({ match: path, rateLimit: { retryAfterSeconds: 0 }, times: 12 });
			const refused = await read();
			expect(refused.error).toMatchObject({ context: { responseCode: '29' } });
			expect(fx.count(path) - before).toBe(10);
		} finally {
			fx.bank.clearFaults();
		}
	});
});

describe('Bank → Get Many', () => {
	test('Get Many returns the banks with the own bank, and Limit is exact', async () => {
		const all = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'bank', operation: 'getAll', returnAll: true },
			credentials: API,
		});
		expect(all.json.length).toBeGreaterThanOrEqual(15);
		expect(all.json.map((b) => b.code)).toContain('090823');
		const some = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'bank', operation: 'getAll', returnAll: false, limit: 3 },
			credentials: API,
		});
		expect(some.json).toHaveLength(3);
	});

	test('a Limit that is not a whole number of at least 1 is refused by name, before any request', async () => {
		const before = fx.bank.requests().length;
		for (const limit of ['={{ 0 }}', '={{ -2 }}', '={{ 2.5 }}']) {
			const run = await runNode(fx.credentials, {
				parameters: { authentication: 'apiClient', resource: 'bank', operation: 'getAll', returnAll: false, limit },
				credentials: API,
			});
			expect(run.error).toMatchObject({ name: 'NodeOperationError' });
			expect(run.error!.message).toMatch(/Limit/);
		}
		expect(fx.bank.requests().length).toBe(before);
	});
});

describe('Token → Validate', () => {
	test("confirms the credential's token and shows its metadata, never the token", async () => {
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'token', operation: 'validate' },
			credentials: API,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(1);
		expect(run.json[0]).toMatchObject({ valid: true });
		expect(JSON.stringify(run.json)).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
	});
});

describe('credential tests (the dialog\'s Test button)', () => {
	test('pass with the seeded credentials', async () => {
		expect(await testCredential(fx.credentials, 'baasApi', 'api-1')).toEqual({ status: 'OK', message: `Signed in as client ID ${fx.bank.seed.clientId}` });
		expect(await testCredential(fx.credentials, 'baasDashboardApi', 'web-1')).toEqual({
			status: 'OK',
			message: `Signed in as e-mail ${fx.bank.seed.dashboardEmail}`,
		});
	});

	test('fail with a readable message on a wrong secret or password', async () => {
		fx.credentials.add('api-bad', 'baasApi', { ...fx.credentials.stored('api-1')!, clientSecret: 'nope-123456', accessToken: '' });
		const api = await testCredential(fx.credentials, 'baasApi', 'api-bad');
		expect(api.status).toBe('Error');
		expect(api.message).toMatch(/Invalid client credentials/);
		expect(api.message).not.toContain('nope-123456');

		fx.credentials.add('web-bad', 'baasDashboardApi', { ...fx.credentials.stored('web-1')!, password: 'bad-pass-99', accessToken: '' });
		const web = await testCredential(fx.credentials, 'baasDashboardApi', 'web-bad');
		expect(web.status).toBe('Error');
		expect(web.message).toMatch(/Invalid email or password/);
		expect(web.message).not.toContain('bad-pass-99');
	});
});
