import { SIMPLE_COLLECTION_FIELDS, SIMPLE_SUMMARY_FIELDS } from '../../nodes/common/actions/simplifiedFields';
import { api, expectBankError, naira, OPERATIONS, POOL, SAVINGS_INACTIVE, VIRTUALS, web } from './harness/accounts';
import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { runListSearch } from './harness/listSearch';
import { rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';

describe('read operations', () => {
	const fx = useBankFixture();
	const state = () => fx.bank.bank;
	const mine = () => state().businessAccounts(state().main.id);
	/** Successful inbound credits of the business, optionally within [from, to) ms. */
	const credits = (accountNumber?: string, from = -Infinity, to = Infinity) =>
		state().transactions.filter(
			(t) =>
				t.businessId === state().main.id &&
				t.type === 'credit' &&
				t.status === 'success' &&
				(!accountNumber || t.accountNumber === accountNumber) &&
				t.createdAtMs >= from &&
				t.createdAtMs < to,
		);

	describe('Get Balance (resource locator)', () => {
		test('reads the balance from a list pick and from "By Number", with both credentials', async () => {
			const fromList = await runNode(fx.credentials, api({ operation: 'getBalance', accountNumber: rl(POOL) }));
			expect(fromList.error).toBeUndefined();
			expect(fromList.json).toEqual([expect.objectContaining({ account_number: POOL, status: 'active' })]);
			expect(fromList.json[0].balance).toMatch(/^\d+\.\d{9}$/);
			const byNumber = await runNode(fx.credentials, web({ operation: 'getBalance', accountNumber: rl(OPERATIONS, 'id') }));
			expect(byNumber.json).toEqual([expect.objectContaining({ account_number: OPERATIONS, account_type: 'current' })]);
		});

		test('an account of another business is refused by the bank (44 on the dashboard API)', async () => {
			await expectBankError(fx, web({ operation: 'getBalance', accountNumber: rl(fx.bank.seed.foreignAccountNumber, 'id') }), '44');
		});

		test('a number that is not 10 digits is refused before any request', async () => {
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'getBalance', accountNumber: rl('={{ $json.account }}', 'id') }, { items: [{ account: '08230' }, { account: POOL }] }),
				/Account Number must be exactly 10 digits \(got "08230"\) in item 1/,
			);
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'getBalance', accountNumber: rl('={{ $json.account }}', 'id') }, { items: [{ name: 'no account column' }] }),
				/Account Number is required: pick an account or give its 10-digit number in item 1/,
			);
		});
	});

	describe('Get Many', () => {
		test('Return All lists every account of the business exactly once, with both credentials', async () => {
			const expected = mine().map((a) => a.accountNumber).sort();
			for (const options of [api({ operation: 'getAll', returnAll: true }), web({ operation: 'getAll', returnAll: true })]) {
				const run = await runNode(fx.credentials, options);
				expect(run.error).toBeUndefined();
				expect(run.json.map((a) => a.account_number).sort()).toEqual(expected);
				expect(run.json.map((a) => a.account_number)).not.toContain(fx.bank.seed.foreignAccountNumber);
				for (const account of run.json) expect(typeof account.balance).toBe('string');
			}
		});

		test('Limit returns exactly the limit, newest first', async () => {
			const run = await runNode(fx.credentials, web({ operation: 'getAll', returnAll: false, limit: 4 }));
			expect(run.json).toHaveLength(4);
			const newest = [...mine()].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1)).slice(0, 4);
			expect(run.json.map((a) => a.account_number)).toEqual(newest.map((a) => a.accountNumber));
		});

		test.each([
			['account type', { accountType: 'virtual' }, VIRTUALS],
			['status', { status: 'inactive' }, [SAVINGS_INACTIVE]],
			['availability (no)', { isAvailable: false }, ['0823000003', '0823000004', '0823000005']],
			['availability (yes)', { isAvailable: true }, [POOL, OPERATIONS, ...VIRTUALS]],
			['pool account (list pick)', { poolAccountNumber: rl(POOL) }, VIRTUALS],
			['type and status', { accountType: 'savings', status: 'blocked' }, ['0823000004']],
		])('filters by %s', async (_name, filters, expected) => {
			const run = await runNode(fx.credentials, api({ operation: 'getAll', returnAll: true, filters }));
			expect(run.error).toBeUndefined();
			expect(run.json.map((a) => a.account_number).sort()).toEqual([...expected].sort());
		});

		test('a bank refusal (41) fails the item with the bank code', async () => {
			fx.bank.addFault({ match: '/account/web/fetch_customer_accounts', errorCode: '41', times: 5 });
			await expectBankError(fx, web({ operation: 'getAll', returnAll: true }), '41');
		});

		test('invalid filters are refused before any request', async () => {
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'getAll', returnAll: true, filters: { poolAccountNumber: rl('={{ "12345" }}', 'id') } }),
				/Pool Account Number must be exactly 10 digits.*item 1/,
			);
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'getAll', returnAll: true, filters: { accountType: '={{ "pool" }}' } }),
				/Account Type must be one of current, normal, savings, virtual \(got "pool"\)/,
			);
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'getAll', returnAll: false, limit: '={{ 0 }}' }),
				/Limit must be at least 1/,
			);
		});
	});

	describe('Get Summaries', () => {
		test('one simplified item per account with lifetime totals that match the ledger', async () => {
			const run = await runNode(fx.credentials, web({ operation: 'getSummaries', returnAll: true }));
			expect(run.error).toBeUndefined();
			expect(run.json.map((s) => s.account_number).sort()).toEqual(mine().map((a) => a.accountNumber).sort());
			for (const summary of run.json) expect(Object.keys(summary)).toEqual([...SIMPLE_SUMMARY_FIELDS]);
			const pool = run.json.find((s) => s.account_number === POOL)!;
			const poolCredits = credits(POOL);
			expect(pool.total_collections).toBe(poolCredits.length);
			expect(pool.total_collection_amount).toBe(naira(poolCredits.reduce((sum, t) => sum + t.amount, 0n)));
		});

		test('Simplify off returns the whole record; filters narrow it', async () => {
			const run = await runNode(
				fx.credentials,
				web({ operation: 'getSummaries', returnAll: true, simplify: false, filters: { accountNumber: rl(OPERATIONS, 'id') } }),
			);
			expect(run.json).toHaveLength(1);
			expect(run.json[0]).toMatchObject({ account_number: OPERATIONS, account_class: 'primary' });
			expect(Object.keys(run.json[0]).length).toBeGreaterThan(10);
			const virtual = await runNode(fx.credentials, web({ operation: 'getSummaries', returnAll: true, filters: { accountType: 'virtual' } }));
			expect(virtual.json.map((s) => s.account_number).sort()).toEqual(VIRTUALS);
			const unavailable = await runNode(fx.credentials, web({ operation: 'getSummaries', returnAll: true, filters: { isAvailable: false } }));
			expect(unavailable.json.map((s) => s.status).sort()).toEqual(['blocked', 'closed', 'inactive']);
			const limited = await runNode(fx.credentials, web({ operation: 'getSummaries', returnAll: false, limit: 7 }));
			expect(limited.json).toHaveLength(7);
		});

		test('a bank refusal (41) fails the item', async () => {
			fx.bank.addFault({ match: '/fetch_account_summaries', errorCode: '41', times: 5 });
			await expectBankError(fx, web({ operation: 'getSummaries', returnAll: true }), '41');
		});

		test('an invalid account filter is refused before any request', async () => {
			await expectRejectedWithoutRequest(
				fx,
				web({ operation: 'getSummaries', returnAll: true, filters: { accountNumber: rl('={{ "08231000011" }}', 'id') } }),
				/Account Number must be exactly 10 digits/,
			);
		});
	});

	describe('Get Collections', () => {
		test('totals per account, scoped by a date range, match the ledger', async () => {
			const from = '2025-11-01';
			const to = '2025-11-30';
			const run = await runNode(
				fx.credentials,
				web({ operation: 'getCollections', returnAll: true, filters: { startDate: from, endDate: to } }),
			);
			expect(run.error).toBeUndefined();
			expect(run.json).toHaveLength(mine().length);
			for (const record of run.json) expect(Object.keys(record)).toEqual([...SIMPLE_COLLECTION_FIELDS]);
			const window = [Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) + 86_400_000] as const;
			let nonZero = 0;
			for (const record of run.json) {
				const expected = credits(record.account_number as string, ...window);
				expect(record.total_collections).toBe(expected.length);
				expect(record.total_collection_amount).toBe(naira(expected.reduce((sum, t) => sum + t.amount, 0n)));
				if (expected.length > 0) nonZero++;
			}
			expect(nonZero).toBeGreaterThan(0);
		});

		test('a single day, the pool and the account filters narrow the list', async () => {
			const day = new Date(credits(VIRTUALS[0]).at(-1)!.createdAtMs).toISOString().slice(0, 10);
			const dayStart = Date.parse(`${day}T00:00:00Z`);
			const run = await runNode(
				fx.credentials,
				web({
					operation: 'getCollections',
					returnAll: true,
					simplify: false,
					filters: { date: day, poolAccountNumber: rl(POOL, 'id'), accountNumber: rl(VIRTUALS[0]) },
				}),
			);
			expect(run.json).toHaveLength(1);
			expect(run.json[0]).toMatchObject({ account_number: VIRTUALS[0], pool_account_number: POOL, account_class: 'secondary' });
			expect(run.json[0].total_collections).toBe(credits(VIRTUALS[0], dayStart, dayStart + 86_400_000).length);
			expect(run.json[0].total_collections).toBeGreaterThan(0);
		});

		test('a bank refusal (41) fails the item', async () => {
			fx.bank.addFault({ match: '/fetch_account_collections', errorCode: '41', times: 5 });
			await expectBankError(fx, web({ operation: 'getCollections', returnAll: true }), '41');
		});

		test('a start after the end, or an impossible date, is refused before any request', async () => {
			await expectRejectedWithoutRequest(
				fx,
				web({ operation: 'getCollections', returnAll: true, filters: { startDate: '2025-12-10', endDate: '2025-12-01' } }),
				/Start Date must not be after End Date 2025-12-01 \(got "2025-12-10"\) in item 1/,
			);
			await expectRejectedWithoutRequest(
				fx,
				web({ operation: 'getCollections', returnAll: true, filters: { date: '2025-02-30' } }),
				/Date is not a real calendar date/,
			);
		});
	});

	describe('Get Metrics', () => {
		test('counts and amounts match the ledger; filters and Skip Counting apply', async () => {
			const run = await runNode(fx.credentials, web({ operation: 'getMetrics' }));
			expect(run.error).toBeUndefined();
			const accounts = mine();
			expect(run.json).toEqual([
				{
					total_active_accounts: accounts.filter((a) => a.status === 'active').length,
					total_inactive_accounts: accounts.filter((a) => a.status === 'inactive').length,
					total_virtual_accounts: accounts.filter((a) => a.accountType === 'virtual').length,
					total_volume_collected: naira(credits().reduce((sum, t) => sum + t.amount, 0n)),
					total_business_balance: naira(accounts.reduce((sum, a) => sum + a.balance, 0n)),
				},
			]);
			const virtualOnly = await runNode(
				fx.credentials,
				web({ operation: 'getMetrics', filters: { accountType: 'virtual', startDate: '2025-12-01', endDate: '2025-12-31' } }),
			);
			const december = [Date.parse('2025-12-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00Z')] as const;
			const virtualCredits = VIRTUALS.flatMap((n) => credits(n, ...december));
			expect(virtualOnly.json[0]).toMatchObject({
				total_active_accounts: 6,
				total_inactive_accounts: 0,
				total_volume_collected: naira(virtualCredits.reduce((sum, t) => sum + t.amount, 0n)),
			});
			const skipped = await runNode(fx.credentials, web({ operation: 'getMetrics', additionalFields: { skipCount: true, count: 3 } }));
			expect(skipped.json[0]).toMatchObject({ total_active_accounts: null, total_virtual_accounts: null });
			const one = await runNode(fx.credentials, web({ operation: 'getMetrics', filters: { accountNumber: rl(SAVINGS_INACTIVE) } }));
			expect(one.json[0]).toMatchObject({ total_active_accounts: 0, total_inactive_accounts: 1 });
		});

		test('a bank refusal (41) fails the item', async () => {
			fx.bank.addFault({ match: '/get_total_account_metrics', errorCode: '41', times: 5 });
			await expectBankError(fx, web({ operation: 'getMetrics' }), '41');
		});

		test('invalid dates or counts are refused before any request', async () => {
			await expectRejectedWithoutRequest(fx, web({ operation: 'getMetrics', filters: { date: '31/12/2025' } }), /Date must be a date written YYYY-MM-DD/);
			await expectRejectedWithoutRequest(
				fx,
				web({ operation: 'getMetrics', additionalFields: { count: '={{ 2.5 }}' } }),
				/Max Accounts must be a whole number/,
			);
		});
	});

	describe('Get Total Balance', () => {
		test('is the sum of the active accounts\' balances', async () => {
			const run = await runNode(fx.credentials, web({ operation: 'getTotalBalance' }));
			expect(run.error).toBeUndefined();
			const active = mine().filter((a) => a.status === 'active');
			expect(run.json).toEqual([{ total_balance: naira(active.reduce((sum, a) => sum + a.balance, 0n)) }]);
		});

		test('a bank refusal (41) fails the item', async () => {
			fx.bank.addFault({ match: '/get_total_balance', errorCode: '41', times: 5 });
			await expectBankError(fx, web({ operation: 'getTotalBalance' }), '41');
		});

		test('with the API client credential (no such endpoint) nothing is sent', async () => {
			const before = fx.bank.requests().length;
			const run = await runNode(fx.credentials, api({ operation: 'getTotalBalance' }));
			expect(run.error!.message).toMatch(/Account → Get Total Balance is offered only with Authentication: Dashboard User/);
			expect(fx.bank.requests().length).toBe(before);
		});
	});

	describe('account picker (list search)', () => {
		test('lists the business\'s accounts as "name (number)" with either credential', async () => {
			for (const [parameters, credentials] of [
				[{ authentication: 'apiClient', resource: 'account', operation: 'getBalance' }, API],
				[{ authentication: 'dashboardUser', resource: 'account', operation: 'getBalance' }, DASHBOARD],
			] as const) {
				const { results } = await runListSearch(fx.credentials, { parameters, credentials, method: 'searchAccounts' });
				expect(results.map((r) => r.value).sort()).toEqual(mine().map((a) => a.accountNumber).sort());
				expect(results).toContainEqual({ name: `Sandbox Business Ltd - Pool (${POOL})`, value: POOL });
			}
		});

		test('the search text matches the name (any case) or the number', async () => {
			const parameters = { authentication: 'dashboardUser', resource: 'account', operation: 'getBalance' };
			const byName = await runListSearch(fx.credentials, { parameters, credentials: DASHBOARD, method: 'searchAccounts', filter: 'savings' });
			expect(byName.results.map((r) => r.value)).toEqual([SAVINGS_INACTIVE]);
			const byNumber = await runListSearch(fx.credentials, { parameters, credentials: DASHBOARD, method: 'searchAccounts', filter: '08231' });
			expect(byNumber.results.map((r) => r.value).sort()).toEqual(VIRTUALS);
			const none = await runListSearch(fx.credentials, { parameters, credentials: DASHBOARD, method: 'searchAccounts', filter: 'zzz' });
			expect(none.results).toEqual([]);
			expect(fx.count('/account/web/fetch_customer_accounts')).toBeGreaterThanOrEqual(3);
		});

		test('a bank refusal surfaces as an error', async () => {
			fx.bank.addFault({ match: '/account/api/fetch_customer_accounts', errorCode: '41', times: 5 });
			await expect(
				runListSearch(fx.credentials, {
					parameters: { authentication: 'apiClient', resource: 'account', operation: 'getBalance' },
					credentials: API,
					method: 'searchAccounts',
				}),
			).rejects.toMatchObject({ context: { responseCode: '41' } });
		});
	});
});
