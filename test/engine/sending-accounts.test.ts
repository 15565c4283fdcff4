/** Send money's Source Account list, as the editor opens it: only accounts that can send, with status and balance. */
import { formatBalance } from '../../nodes/common/methods/sendingAccountSearch';
import { formatBalance as bankBalance } from '../../sandbox/data/money';
import { API, useBankFixture } from './harness/bankFixture';
import { runListSearch } from './harness/listSearch';

describe('Send money → Source Account list', () => {
	const fx = useBankFixture();
	const state = () => fx.bank.bank;
	const parameters = { authentication: 'apiClient', resource: 'transfer', operation: 'create' };
	const list = async (filter?: string) =>
		(await runListSearch(fx.credentials, { parameters, credentials: API, method: 'searchSendingAccounts', filter })).results;

	test('lists the active accounts only, each with its status and balance, funded ones first by balance', async () => {
		const mine = state().businessAccounts(state().main.id);
		const results = await list();
		const active = mine.filter((a) => a.status === 'active');
		expect(results.map((r) => r.value).sort()).toEqual(active.map((a) => a.accountNumber).sort());
		for (const refused of ['0823000003', '0823000004', '0823000005']) expect(results.map((r) => r.value)).not.toContain(refused);
		const balances = results.map((r) => state().accounts.get(r.value as string)!.balance);
		expect(balances).toEqual([...balances].sort((a, b) => (a === b ? 0 : b > a ? 1 : -1)));
		for (const result of results) {
			const account = state().accounts.get(result.value as string)!;
			expect(result.name).toBe(`${account.accountNumber} · active · NGN ${formatBalance(bankBalance(account.balance))} · ${account.accountName}`);
		}
		// The pool holds the most: first.
		expect(results[0].value).toBe(fx.bank.seed.poolAccountNumber);
	});

	test('an account made inactive leaves the list; an empty one comes after the funded ones', async () => {
		const account = state().accounts.get('0823100006')!;
		const [status, balance] = [account.status, account.balance];
		try {
			account.status = 'inactive';
			expect((await list()).map((r) => r.value)).not.toContain('0823100006');
			account.status = 'active';
			account.balance = 123_456_789n;
			expect((await list('0823100006'))[0].name).toBe('0823100006 · active · NGN 1,234,567.89 · Folasade Balogun');
			account.balance = 0n;
			const results = await list();
			const empty = results.findIndex((r) => r.value === '0823100006');
			expect(results[empty].name).toBe('0823100006 · active · NGN 0.00 · Folasade Balogun');
			expect(results.slice(empty + 1).every((r) => state().accounts.get(r.value as string)!.balance === 0n)).toBe(true);
		} finally {
			Object.assign(account, { status, balance });
		}
	});

	test('the search text filters by number or name', async () => {
		expect((await list('0823000')).map((r) => r.value).sort()).toEqual(['0823000001', '0823000002']);
		expect((await list('savings'))).toEqual([]);
	});
});
