import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { runListSearch } from './harness/listSearch';
import { runNode } from './harness/runNode';

describe('cursor paging over many accounts created in the same millisecond', () => {
	const fx = useBankFixture();
	const CREATED = 250;

	beforeAll(() => {
		const bank = fx.bank.bank;
		const at = Date.parse('2025-12-15T10:00:00.000Z');
		for (let i = 0; i < CREATED; i++) {
			bank.createCustomerAccount(
				bank.main.id,
				{ account_name: `Customer ${i}`, email: `c${i}@example.com`, phone: '08030000000', bvn: '22200000001' },
				at,
			);
		}
	});

	const all = () => fx.bank.bank.businessAccounts(fx.bank.bank.main.id).map((a) => a.accountNumber).sort();

	test.each([
		['Get Many', 'getAll', 'apiClient', '/account/api/fetch_customer_accounts'],
		['Get Summaries', 'getSummaries', 'dashboardUser', '/account/web/fetch_account_summaries'],
		['Get Collections', 'getCollections', 'dashboardUser', '/account/web/fetch_account_collections'],
	])('%s Return All returns each account exactly once across cursor pages with tied timestamps', async (_name, operation, authentication, path) => {
		const before = fx.count(path);
		const run = await runNode(fx.credentials, {
			parameters: { authentication, resource: 'account', operation, returnAll: true },
			credentials: authentication === 'apiClient' ? API : DASHBOARD,
		});
		expect(run.error).toBeUndefined();
		const numbers = run.json.map((a) => a.account_number as string);
		expect(numbers).toHaveLength(CREATED + 11);
		expect(new Set(numbers).size).toBe(numbers.length);
		expect([...numbers].sort()).toEqual(all());
		expect(fx.count(path) - before).toBe(Math.ceil((CREATED + 11) / 100));
	});

	test('Limit above one page returns exactly the limit without repeats', async () => {
		const run = await runNode(fx.credentials, {
			parameters: { authentication: 'dashboardUser', resource: 'account', operation: 'getAll', returnAll: false, limit: 150 },
			credentials: DASHBOARD,
		});
		expect(run.json).toHaveLength(150);
		expect(new Set(run.json.map((a) => a.account_number)).size).toBe(150);
	});

	test('the picker reads at most 100 accounts in one request', async () => {
		const before = fx.count('/account/api/fetch_customer_accounts');
		const { results } = await runListSearch(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'account', operation: 'getBalance' },
			credentials: API,
			method: 'searchAccounts',
		});
		expect(results).toHaveLength(100);
		expect(fx.count('/account/api/fetch_customer_accounts') - before).toBe(1);
	});
});
