import { boot, Client, expectError, expectOk, V1, type TransferRecord } from './helpers';
import type { RequestLogEntry, SandboxHandle, SeedInfo } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 50, interSettleDelayMs: 60_000 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const balanceCall = () => c.api('account/api/get_account_balance', { account_number: '0823000001' });

describe('seed, ledger, logs', () => {
	it('GET /__sandbox/seed returns the documented fixed values', async () => {
		const r = await c.control<SeedInfo>('GET', 'seed');
		expectOk(r);
		expect(r.body.data).toEqual(sb.seed);
		expect(r.body.data).toMatchObject({
			clientId: 'sandbox_client_id',
			dashboardEmail: 'admin@sandbox.bank',
			ownBankCode: '090823',
			poolAccountNumber: '0823000001',
			blockedAccountNumber: '0823000004',
			closedAccountNumber: '0823000005',
			foreignAccountNumber: '0823900001',
		});
		expect(r.body.data.accounts.find((a) => a.account_number === '0823000003')?.status).toBe('inactive');
	});

	it('GET /__sandbox/ledger shows accounts, totals, transfers and roles', async () => {
		await c.api('transaction/transfer/api/funds_transfer', {
			reference_number: 'L-1', transfer_type: 'intra', amount: '1.00', source_account_number: '0823000001', beneficiary_account_number: '0823100001', narration: 'ledger',
		});
		const r = await c.control<{
			accounts: Array<{ account_number: string; balance: string }>;
			totals: { transactions: number; settlements: number };
			transfers: Array<{ reference_number: string }>;
			recent_transactions: unknown[];
			roles: Array<{ name: string }>;
		}>('GET', 'ledger');
		expectOk(r);
		expect(r.body.data.accounts.find((a) => a.account_number === '0823000001')?.balance).toMatch(/^\d+\.\d{9}$/);
		expect(r.body.data.transfers.map((t) => t.reference_number)).toEqual(['L-1']);
		// 50 generated + the intra transfer's debit and the beneficiary's credit (both accounts are the business's)
		expect(r.body.data.totals.transactions).toBe(52);
		expect(r.body.data.totals.settlements).toBeGreaterThan(0);
		expect(r.body.data.roles.map((x) => x.name)).toEqual(['ADMIN', 'INITIATOR', 'REVIEWER', 'AUTHORIZER']);
	});

	it('logs contract requests (not control ones) and clears the log', async () => {
		await balanceCall();
		const r = await c.control<RequestLogEntry[]>('GET', 'requests');
		expect(r.body.data.map((e) => e.path)).toEqual([`${V1}/security/api/generate_token`, `${V1}/account/api/get_account_balance`].slice(-r.body.data.length));
		const last = sb.requests().at(-1) as RequestLogEntry;
		expect(last).toMatchObject({ method: 'POST', path: `${V1}/account/api/get_account_balance`, status: 200, response_code: '00' });
		expectOk(await c.control('POST', 'requests/clear'));
		expect(sb.requests()).toEqual([]);
	});

	it('POST /__sandbox/config changes timing; bad values -> 400', async () => {
		const r = await c.control<{ interSettleDelayMs: number }>('POST', 'config', { interSettleDelayMs: 5 });
		expect(r.body.data.interSettleDelayMs).toBe(5);
		expect((await c.control('POST', 'config', { interSettleDelayMs: -1 })).status).toBe(400);
		expect((await c.control('POST', 'config', { nope: 1 })).status).toBe(400);
		sb.configure({ interSettleDelayMs: 60_000 });
	});

	it('POST /__sandbox/settle finishes pending transfers', async () => {
		await c.api('transaction/transfer/api/funds_transfer', {
			reference_number: 'S-1', transfer_type: 'inter', amount: '1.00', source_account_number: '0823000001', beneficiary_account_number: '1234567890', bank_code: '000015', narration: 'settle',
		});
		expectOk(await c.control('POST', 'settle'));
		const st = await c.api<TransferRecord>('transaction/transfer/api/transaction_status', { reference_number: 'S-1' });
		expect(st.body.data.status).toBe('successful');
	});

	it('POST /__sandbox/reset restores the seeded state', async () => {
		const before = c.balance('0823100001');
		await c.control('POST', 'collections', { account_number: '0823100001', amount: 100 });
		await c.api('account/api/create_customer_account', { email: 'a@b.co', phone: '1', bvn: '12345678901', account_name: 'Z' });
		expect(c.balance('0823100001')).toBe(before + 10_000n);
		expectOk(await c.control('POST', 'reset'));
		expect(c.balance('0823100001')).toBe(before);
		expect(sb.bank.accounts.size).toBe(sb.seed.accounts.length + 1);
		expect(sb.requests()).toEqual([]);
	});

	it('the same seed gives the same data; another seed other data', async () => {
		const { sb: twin } = await boot({ transactions: 50 });
		const { sb: other } = await boot({ transactions: 50, seed: 43 });
		try {
			const ids = (s: SandboxHandle) => s.bank.transactions.map((t) => `${t.id}|${t.reference}|${t.amount}`);
			expect(ids(twin)).toEqual(ids(sb));
			expect(ids(other)).not.toEqual(ids(sb));
		} finally {
			await twin.close();
			await other.close();
		}
	});
});

describe('collections control route', () => {
	it('credits the account and refuses unknown or non-active accounts with 400', async () => {
		const before = c.balance('0823100004');
		const r = await c.control<{ amount: string }>('POST', 'collections', { account_number: '0823100004', amount: '10.05', sender_name: 'Jane' });
		expectOk(r);
		expect(c.balance('0823100004')).toBe(before + 1005n);
		expect((await c.control('POST', 'collections', { account_number: '0000000000', amount: '1.00' })).status).toBe(400);
		expect((await c.control('POST', 'collections', { account_number: sb.seed.blockedAccountNumber, amount: '1.00' })).status).toBe(400);
		expect((await c.control('POST', 'collections', { account_number: '0823100004', amount: 0.1 + 0.2 })).status).toBe(400);
		expect((await c.control('POST', 'collections', { account_number: '0823100004', amount: '1.00', reference: 'X' })).status).toBe(200);
		expect((await c.control('POST', 'collections', { account_number: '0823100004', amount: '1.00', reference: 'X' })).status).toBe(400);
	});

	it('unknown control routes -> 404', async () => {
		expect((await c.control('GET', 'nope')).status).toBe(404);
	});
});

describe('faults', () => {
	it('errorCode 80 for matching paths, N times, with HTTP 503', async () => {
		await c.apiToken();
		const add = await c.control<{ id: string }>('POST', 'faults', { match: 'get_account_balance', errorCode: '80', times: 2 });
		expectOk(add);
		expectError(await balanceCall(), 503, '80', /unavailable/i);
		expectOk(await c.api('transaction/transfer/api/fetch_banks'));
		expectError(await balanceCall(), 503, '80');
		expectOk(await balanceCall());
		expect((await c.control<unknown[]>('GET', 'faults')).body.data).toEqual([]);
	});

	it('errorRate 0 never fires; DELETE clears', async () => {
		await c.control('POST', 'faults', { errorCode: '80', errorRate: 0 });
		for (let i = 0; i < 5; i++) expectOk(await balanceCall());
		expect((await c.control<unknown[]>('GET', 'faults')).body.data).toHaveLength(1);
		expectOk(await c.control('DELETE', 'faults'));
		expect((await c.control<unknown[]>('GET', 'faults')).body.data).toEqual([]);
	});

	it('errorRate 0.5 fires on some requests only (seeded)', async () => {
		await c.apiToken();
		sb.addFault({ match: 'get_account_balance', errorCode: '80', errorRate: 0.5 });
		const codes: string[] = [];
		for (let i = 0; i < 40; i++) codes.push((await balanceCall()).body.response_code);
		const failures = codes.filter((x) => x === '80').length;
		expect(failures).toBeGreaterThan(5);
		expect(failures).toBeLessThan(35);
		sb.clearFaults();
	});

	it('latencyMs delays the answer', async () => {
		await c.apiToken();
		sb.addFault({ match: 'fetch_banks', latencyMs: 300, times: 1 });
		const t0 = Date.now();
		expectOk(await c.api('transaction/transfer/api/fetch_banks'));
		expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
	});

	it('rateLimit answers 429 / 29 with Retry-After', async () => {
		await c.apiToken();
		await c.control('POST', 'faults', { match: 'fetch_transactions', rateLimit: { retryAfterSeconds: 7 }, times: 1 });
		const r = await c.api('transaction/api/fetch_transactions', {});
		expectError(r, 429, '29', /retry after 7/);
		expect(r.headers.get('retry-after')).toBe('7');
		expectOk(await c.api('transaction/api/fetch_transactions', {}));
	});

	it('rateLimit with perSecond refuses only the requests beyond that many in one clock second', async () => {
		await c.apiToken();
		sb.addFault({ match: 'get_account_balance', rateLimit: { retryAfterSeconds: 1, perSecond: 5 } });
		// Start just after a second begins, so all 12 land in the same second.
		await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
		const answers = await Promise.all(Array.from({ length: 12 }, () => balanceCall()));
		expect(answers.filter((r) => r.body.status).length).toBe(5);
		for (const refused of answers.filter((r) => !r.body.status)) expectError(refused, 429, '29', /retry after 1/);
		// Requests the fault does not match are not counted or refused.
		expectOk(await c.api('transaction/transfer/api/fetch_banks'));
		await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
		expectOk(await balanceCall());
		expect(sb.requests().every((e) => Number.isInteger(e.ms) && e.ms >= 0)).toBe(true);
	});

	it('drop before: no response and no state change', async () => {
		await c.apiToken();
		const before = c.balance('0823000001');
		sb.addFault({ match: 'funds_transfer', drop: 'before', times: 1 });
		await expect(
			c.api('transaction/transfer/api/funds_transfer', {
				reference_number: 'DROP-B', transfer_type: 'intra', amount: '5.00', source_account_number: '0823000001', beneficiary_account_number: '0823100001', narration: 'drop',
			}),
		).rejects.toThrow();
		expect(c.balance('0823000001')).toBe(before);
		expectError(await c.api('transaction/transfer/api/transaction_status', { reference_number: 'DROP-B' }), 200, '06');
		expect(sb.requests().find((e) => e.path.endsWith('funds_transfer'))).toMatchObject({ status: 0, response_code: '' });
	});

	it('drop after: the transfer happened, the caller got no answer', async () => {
		await c.apiToken();
		const before = c.balance('0823000001');
		await c.control('POST', 'faults', { match: 'funds_transfer', drop: 'after', times: 1 });
		await expect(
			c.api('transaction/transfer/api/funds_transfer', {
				reference_number: 'DROP-A', transfer_type: 'intra', amount: '5.00', source_account_number: '0823000001', beneficiary_account_number: '0823100001', narration: 'drop',
			}),
		).rejects.toThrow();
		expect(c.balance('0823000001')).toBe(before - 500n);
		const st = await c.api<TransferRecord>('transaction/transfer/api/transaction_status', { reference_number: 'DROP-A' });
		expect(st.body.data).toMatchObject({ reference_number: 'DROP-A', status: 'successful' });
	});

	it('an invalid fault spec -> 400 naming the field; addFault throws', async () => {
		const r = await c.control('POST', 'faults', { errorRate: 2, errorCode: '80' });
		expectError(r, 400, '99', /errorRate/);
		expect(() => sb.addFault({ drop: 'sideways' } as never)).toThrow(/drop/);
		expect(() => sb.addFault({ match: 'x' })).toThrow();
	});

	it('DELETE /__sandbox/faults/:id removes one fault', async () => {
		const a = await c.control<{ id: string }>('POST', 'faults', { errorCode: '80', match: 'a' });
		await c.control('POST', 'faults', { errorCode: '80', match: 'b' });
		expectOk(await c.control('DELETE', `faults/${a.body.data.id}`));
		expect((await c.control<Array<{ match: string }>>('GET', 'faults')).body.data.map((f) => f.match)).toEqual(['b']);
		expect((await c.control('DELETE', 'faults/nope')).status).toBe(404);
	});
});
