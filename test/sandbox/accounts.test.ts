import { boot, Client, expectError, expectOk, type AccountItem } from './helpers';
import type { SandboxHandle } from '../../sandbox';
import { formatAmount } from '../../sandbox/data/money';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 300 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const BALANCE = /^\d+\.\d{9}$/;
const AMOUNT = /^\d+\.\d{2}$/;

describe('get_account_balance', () => {
	it('integration: returns the account with a nine-decimal balance', async () => {
		const r = await c.api<AccountItem>('account/api/get_account_balance', { account_number: sb.seed.poolAccountNumber });
		expectOk(r);
		expect(r.body.data).toMatchObject({ account_number: '0823000001', account_type: 'pool', status: 'active' });
		expect(r.body.data.balance).toMatch(BALANCE);
		expect(r.body.data.last_balance_update).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
		const kobo = c.balance(sb.seed.poolAccountNumber);
		expect(r.body.data.balance).toBe(`${formatAmount(kobo)}0000000`);
	});

	it('integration: an account of another business or none at all -> 83', async () => {
		for (const n of [sb.seed.foreignAccountNumber, '0000000000']) {
			expectError(await c.api('account/api/get_account_balance', { account_number: n }), 200, '83', /balance query rejected/i);
		}
	});

	it('dashboard: returns blocked and closed accounts as they are; others -> 44', async () => {
		const r = await c.web<AccountItem>('account/web/get_account_balance', { account_number: sb.seed.blockedAccountNumber });
		expectOk(r);
		expect(r.body.data.status).toBe('blocked');
		expectError(await c.web('account/web/get_account_balance', { account_number: sb.seed.foreignAccountNumber }), 200, '44');
		expectError(await c.web('account/web/get_account_balance', { account_number: '0000000000' }), 200, '44');
	});
});

describe('create_customer_account', () => {
	it('creates an active virtual account with a zero balance, linked to the pool', async () => {
		const r = await c.api<AccountItem>('account/api/create_customer_account', {
			email: 'jane@example.com',
			phone: '+2348012345678',
			nin: '12345678901',
			account_name: 'Jane Doe',
		});
		expectOk(r);
		expect(r.body.data).toMatchObject({ account_name: 'Jane Doe', account_type: 'virtual', status: 'active', balance: '0.000000000' });
		expect(r.body.data.account_number).toMatch(/^\d{10}$/);
		expect(r.body.data.pool_account_number).toBe(sb.seed.poolAccountNumber);
		const list = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { limit: 100 });
		expect(list.body.data.map((a) => a.account_number)).toContain(r.body.data.account_number);
		const bal = await c.api<AccountItem>('account/api/get_account_balance', { account_number: r.body.data.account_number });
		expect(bal.body.data.balance).toBe('0.000000000');
	});

	it.each(['00000000000', '99999999999'])('identity %s fails verification -> 83', async (id) => {
		const before = sb.bank.accounts.size;
		const r = await c.api('account/api/create_customer_account', { email: 'a@b.co', phone: '0801', bvn: id, account_name: 'X' });
		expectError(r, 200, '83', /identity/i);
		expect(sb.bank.accounts.size).toBe(before);
	});
});

describe('update_account_status', () => {
	const current = '0823000002';

	it('moves active -> inactive -> active and returns the account', async () => {
		const r = await c.web<AccountItem>('account/web/update_account_status', { account_number: current, status: 'inactive' });
		expectOk(r);
		expect(r.body.data).toMatchObject({ account_number: current, status: 'inactive' });
		expect(r.body.data.balance).toMatch(BALANCE);
		const back = await c.web<AccountItem>('account/web/update_account_status', { account_number: current, status: 'active' });
		expect(back.body.data.status).toBe('active');
	});

	it('refuses blocked and closed accounts with 45 and leaves them unchanged', async () => {
		for (const n of [sb.seed.blockedAccountNumber, sb.seed.closedAccountNumber]) {
			expectError(await c.web('account/web/update_account_status', { account_number: n, status: 'active' }), 200, '45');
		}
		expect(sb.bank.accounts.get(sb.seed.blockedAccountNumber)?.status).toBe('blocked');
		expect(sb.bank.accounts.get(sb.seed.closedAccountNumber)?.status).toBe('closed');
	});

	it('refuses an account of another business with 44', async () => {
		expectError(await c.web('account/web/update_account_status', { account_number: sb.seed.foreignAccountNumber, status: 'inactive' }), 200, '44');
		expect(sb.bank.accounts.get(sb.seed.foreignAccountNumber)?.status).toBe('active');
	});
});

describe('fetch_customer_accounts', () => {
	it('lists the business accounts newest first with listing fields, both variants', async () => {
		const web = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', {});
		const api = await c.api<AccountItem[]>('account/api/fetch_customer_accounts', {});
		expectOk(web);
		expect(api.body.data).toEqual(web.body.data);
		expect(web.body.data).toHaveLength(sb.seed.accounts.length);
		expect(web.body.data.map((a) => a.account_number)).not.toContain(sb.seed.foreignAccountNumber);
		for (const a of web.body.data) {
			expect(Object.keys(a)).toEqual(expect.arrayContaining(['is_available', 'pool_account_number', 'balance', 'last_balance_update']));
			expect(a.is_available).toBe(a.status === 'active');
		}
		const stamps = web.body.data.map((a) => Date.parse(a.created_at as string));
		expect([...stamps].sort((x, y) => y - x)).toEqual(stamps);
	});

	it('filters by type, status, pool account and availability', async () => {
		const virt = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { filters: { account_type: 'virtual' } });
		expect(virt.body.data).toHaveLength(6);
		expect(virt.body.data.every((a) => a.account_type === 'virtual')).toBe(true);
		const pooled = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { filters: { pool_account_number: sb.seed.poolAccountNumber } });
		expect(pooled.body.data).toHaveLength(6);
		const blocked = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { filters: { status: 'blocked' } });
		expect(blocked.body.data.map((a) => a.account_number)).toEqual([sb.seed.blockedAccountNumber]);
		const unavailable = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { filters: { is_available: false } });
		expect(unavailable.body.data.map((a) => a.status).sort()).toEqual(['blocked', 'closed', 'inactive']);
	});

	it('cursor paging over six accounts with one created_at returns each exactly once', async () => {
		const seen: string[] = [];
		let cursor: { cursor_created_at?: string; cursor_id?: string } = {};
		for (let i = 0; i < 10; i++) {
			const r = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { filters: { account_type: 'virtual' }, limit: 4, ...cursor });
			if (r.body.data.length === 0) break;
			seen.push(...r.body.data.map((a) => a.account_number));
			const last = r.body.data[r.body.data.length - 1];
			cursor = { cursor_created_at: last.created_at, cursor_id: last.id };
		}
		expect(new Set(seen.map((n) => sb.bank.accounts.get(n)?.createdAtMs)).size).toBe(1);
		expect(seen).toHaveLength(6);
		expect(new Set(seen).size).toBe(6);
	});

	it('count caps the total, limit the page', async () => {
		const first = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { count: 3, limit: 2 });
		expect(first.body.data).toHaveLength(2);
		const last = first.body.data[1];
		const second = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { count: 3, limit: 2, cursor_created_at: last.created_at, cursor_id: last.id });
		expect(second.body.data).toHaveLength(1);
	});
});

describe('aggregates computed from the ledger', () => {
	interface Summary extends AccountItem {
		total_collections: number;
		total_collection_amount: string;
		total_transfers: number;
		total_transfer_amount: string;
		total_transactions: number;
		last_transaction_date: string | null;
		account_class: string;
	}

	it('summaries count successful credits and debits per account', async () => {
		const r = await c.web<Summary[]>('account/web/fetch_account_summaries', { limit: 50 });
		expectOk(r);
		const pool = r.body.data.find((a) => a.account_number === sb.seed.poolAccountNumber) as Summary;
		const txs = sb.bank.transactions.filter((t) => t.accountNumber === pool.account_number && t.status === 'success');
		const credits = txs.filter((t) => t.type === 'credit');
		const debits = txs.filter((t) => t.type === 'debit');
		expect(pool.total_collections).toBe(credits.length);
		expect(pool.total_transfers).toBe(debits.length);
		expect(pool.total_transactions).toBe(credits.length + debits.length);
		expect(pool.total_collection_amount).toBe(formatAmount(credits.reduce((s, t) => s + t.amount, 0n)));
		expect(pool.total_transfer_amount).toMatch(AMOUNT);
		expect(pool.account_class).toBe('primary');

		await c.control('POST', 'collections', { account_number: sb.seed.poolAccountNumber, amount: '1000.50' });
		const again = await c.web<Summary[]>('account/web/fetch_account_summaries', { account_number: sb.seed.poolAccountNumber });
		expect(again.body.data).toHaveLength(1);
		expect(again.body.data[0].total_collections).toBe(pool.total_collections + 1);
		expect(Date.parse(again.body.data[0].last_transaction_date as string)).toBeGreaterThan(Date.now() - 60_000);
	});

	it('summaries filter by availability', async () => {
		const r = await c.web<Summary[]>('account/web/fetch_account_summaries', { is_available: true, limit: 50 });
		expect(r.body.data.length).toBe(sb.seed.accounts.filter((a) => a.status === 'active').length);
	});

	it('collections are scoped by the date filters; idle accounts show zeros', async () => {
		const credit = sb.bank.transactions.find((t) => t.type === 'credit' && t.status === 'success' && t.accountNumber === sb.seed.poolAccountNumber);
		const day = new Date(credit?.createdAtMs as number).toISOString().slice(0, 10);
		const r = await c.web<Summary[]>('account/web/fetch_account_collections', { account_number: sb.seed.poolAccountNumber, date: day });
		const expected = sb.bank.transactions.filter(
			(t) => t.accountNumber === sb.seed.poolAccountNumber && t.type === 'credit' && t.status === 'success' && new Date(t.createdAtMs).toISOString().startsWith(day),
		);
		expect(r.body.data[0].total_collections).toBe(expected.length);
		expect(r.body.data[0].total_collection_amount).toBe(formatAmount(expected.reduce((s, t) => s + t.amount, 0n)));
		const idle = await c.web<Summary[]>('account/web/fetch_account_collections', { account_number: sb.seed.closedAccountNumber, date: '2024-01-01' });
		expect(idle.body.data[0]).toMatchObject({ total_collections: 0, total_collection_amount: '0.00', last_transaction_date: null });
		const pooled = await c.web<Summary[]>('account/web/fetch_account_collections', { pool_account_number: sb.seed.poolAccountNumber });
		expect(pooled.body.data).toHaveLength(6);
	});

	it('metrics and total balance follow the ledger', async () => {
		interface Metrics {
			total_active_accounts: number | null;
			total_inactive_accounts: number | null;
			total_virtual_accounts: number | null;
			total_volume_collected: string;
			total_business_balance: string;
		}
		const m = await c.web<Metrics>('account/web/get_total_account_metrics', {});
		expectOk(m);
		expect(m.body.data).toMatchObject({ total_active_accounts: 8, total_inactive_accounts: 1, total_virtual_accounts: 6 });
		const mine = [...sb.bank.accounts.values()].filter((a) => a.businessId === sb.bank.main.id);
		expect(m.body.data.total_business_balance).toBe(formatAmount(mine.reduce((s, a) => s + a.balance, 0n)));
		const total = await c.web<{ total_balance: string }>('account/web/get_total_balance');
		expect(total.body.data.total_balance).toBe(formatAmount(mine.filter((a) => a.status === 'active').reduce((s, a) => s + a.balance, 0n)));

		await c.control('POST', 'collections', { account_number: '0823100002', amount: '250.25' });
		const after = await c.web<Metrics>('account/web/get_total_account_metrics', {});
		const diff = (a: string, b: string) => Number(a) - Number(b);
		expect(diff(after.body.data.total_volume_collected, m.body.data.total_volume_collected)).toBeCloseTo(250.25, 2);
		const total2 = await c.web<{ total_balance: string }>('account/web/get_total_balance');
		expect(diff(total2.body.data.total_balance, total.body.data.total_balance)).toBeCloseTo(250.25, 2);

		const skipped = await c.web<Metrics>('account/web/get_total_account_metrics', { skip_count: true, filters: { account_type: 'virtual' } });
		expect(skipped.body.data).toMatchObject({ total_active_accounts: null, total_inactive_accounts: null, total_virtual_accounts: null });
		const ranged = await c.web<Metrics>('account/web/get_total_account_metrics', { filters: { start_date: '2024-01-01', end_date: '2024-01-31' } });
		expect(ranged.body.data.total_volume_collected).toBe('0.00');
		const capped = await c.web<Metrics>('account/web/get_total_account_metrics', { count: 1 });
		expect((capped.body.data.total_active_accounts ?? 0) + (capped.body.data.total_inactive_accounts ?? 0)).toBeLessThanOrEqual(1);
	});
});
