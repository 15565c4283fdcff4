import { boot, Client, expectError, expectOk, type SettlementItem, type TxApi, type TxWeb } from './helpers';
import type { SandboxHandle } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 400, seed: 7 }));
});
afterAll(() => sb.close());

const mine = () => sb.bank.transactions.filter((t) => t.businessId === sb.bank.main.id);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Inside a describe: its tests run against the cursor shape (list items carry id; cursor_id is honoured). */
function inCursorShape(): void {
	beforeAll(() => sb.configure({ listShape: 'cursor' }));
	afterAll(() => sb.configure({ listShape: 'documented' }));
}

const newestFirstOf = <T extends { id: string; createdAtMs: number }>(records: T[]) =>
	[...records].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1));

async function allPages<T>(path: string, body: Record<string, unknown>, pageSize: number): Promise<T[]> {
	const out: T[] = [];
	for (let page = 1; page < 1000; page++) {
		const r = await c.web<T[]>(path, { ...body, page, page_size: pageSize });
		expectOk(r);
		if (r.body.data.length === 0) break;
		expect(r.body.data.length).toBeLessThanOrEqual(pageSize);
		out.push(...r.body.data);
	}
	return out;
}

async function allCursor<T extends { id?: string; created_at?: string }>(path: string, body: Record<string, unknown>, limit: number): Promise<T[]> {
	const out: T[] = [];
	let cursor: Record<string, string> = {};
	for (let i = 0; i < 1000; i++) {
		const r = await c.web<T[]>(path, { ...body, limit, ...cursor });
		expectOk(r);
		if (r.body.data.length === 0) break;
		out.push(...r.body.data);
		const last = r.body.data[r.body.data.length - 1];
		cursor = { cursor_created_at: last.created_at as string, cursor_id: last.id as string };
	}
	return out;
}

const API_FIELDS = ['reference_number', 'account_number', 'account_name', 'amount', 'transaction_type', 'transaction_category', 'status', 'channel', 'remarks', 'created_at'];
const WEB_FIELDS = ['reference_number', 'account_number', 'amount', 'transaction_type', 'status', 'narration', 'created_at'];

describe('shapes', () => {
	it('integration variant carries category, channel and remarks: the documented fields, no more', async () => {
		const r = await c.api<TxApi[]>('transaction/api/fetch_transactions', { limit: 5 });
		expectOk(r);
		expect(r.body.data).toHaveLength(5);
		for (const t of r.body.data) {
			expect(Object.keys(t).sort()).toEqual([...API_FIELDS].sort());
			expect(t.amount).toMatch(/^\d+\.\d{2}$/);
			expect(t.account_number).toMatch(/^\d{10}$/);
			expect(['credit', 'debit']).toContain(t.transaction_type);
			expect(['success', 'pending', 'failed']).toContain(t.status);
		}
	});

	it('dashboard variant carries narration: the documented fields, no more', async () => {
		const r = await c.web<TxWeb[]>('transaction/web/fetch_transactions', { page_size: 3 });
		expect(r.body.data).toHaveLength(3);
		for (const t of r.body.data) expect(Object.keys(t).sort()).toEqual([...WEB_FIELDS].sort());
	});

	it('defaults to 20 items, newest first, ties in a stable order (by the bank\'s id, descending)', async () => {
		const r = await c.web<TxWeb[]>('transaction/web/fetch_transactions', {});
		expect(r.body.data.map((t) => t.reference_number)).toEqual(newestFirstOf(mine()).slice(0, 20).map((t) => t.reference));
	});

	describe('in the cursor shape', () => {
		inCursorShape();

		it('both variants add id, the bank\'s record id', async () => {
			const api = await c.api<TxApi[]>('transaction/api/fetch_transactions', { limit: 5 });
			const web = await c.web<TxWeb[]>('transaction/web/fetch_transactions', { limit: 5 });
			for (const t of api.body.data) expect(Object.keys(t).sort()).toEqual(['id', ...API_FIELDS].sort());
			for (const t of web.body.data) expect(Object.keys(t).sort()).toEqual(['id', ...WEB_FIELDS].sort());
			expect(api.body.data.map((t) => t.id)).toEqual(newestFirstOf(mine()).slice(0, 5).map((t) => t.id));
		});
	});
});

describe('paging', () => {
	it('the generator produced equal timestamps (the case paging must survive)', () => {
		const stamps = mine().map((t) => t.createdAtMs);
		expect(new Set(stamps).size).toBeLessThan(stamps.length - 20);
	});

	it('page mode returns every transaction exactly once', async () => {
		const items = await allPages<TxWeb>('transaction/web/fetch_transactions', {}, 7);
		expect(items).toHaveLength(mine().length);
		expect(new Set(items.map((t) => t.reference_number)).size).toBe(mine().length);
	});

	it('cursor_created_at alone (the documented shape has no id to pair it with) lists what is strictly older', async () => {
		const all = newestFirstOf(mine());
		const tie = all.findIndex((t, i) => i > 30 && all[i + 1]?.createdAtMs === t.createdAtMs);
		const at = all[tie].createdAtMs;
		const r = await c.web<TxWeb[]>('transaction/web/fetch_transactions', { cursor_created_at: new Date(at).toISOString(), cursor_id: all[tie].id, limit: 5 });
		expect(r.body.data.map((t) => t.reference_number)).toEqual(all.filter((t) => t.createdAtMs < at).slice(0, 5).map((t) => t.reference));
	});
});

describe('paging in the cursor shape', () => {
	inCursorShape();

	it('cursor mode over equal timestamps returns every transaction exactly once, in page order', async () => {
		const pages = await allPages<TxWeb>('transaction/web/fetch_transactions', {}, 50);
		const cursor = await allCursor<TxWeb>('transaction/web/fetch_transactions', {}, 7);
		expect(cursor.map((t) => t.id)).toEqual(pages.map((t) => t.id));
	});

	it('cursor mode with a filter, integration variant', async () => {
		const expected = mine().filter((t) => t.type === 'credit').length;
		const out: TxApi[] = [];
		let cursor: Record<string, string> = {};
		for (;;) {
			const r = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { transaction_type: 'credit' }, limit: 9, ...cursor });
			if (r.body.data.length === 0) break;
			out.push(...r.body.data);
			const last = r.body.data[r.body.data.length - 1];
			cursor = { cursor_created_at: last.created_at, cursor_id: last.id as string };
		}
		expect(new Set(out.map((t) => t.id)).size).toBe(expected);
		expect(out).toHaveLength(expected);
	});

	it('page_size defaults to limit when only limit is given; a page past the end is empty', async () => {
		expect((await c.web<TxWeb[]>('transaction/web/fetch_transactions', { limit: 3 })).body.data).toHaveLength(3);
		expect((await c.web<TxWeb[]>('transaction/web/fetch_transactions', { page: 999, page_size: 50 })).body.data).toEqual([]);
	});
});

describe('filters', () => {
	it('date (one day) takes precedence over start_date/end_date', async () => {
		const day = dayOf(mine()[Math.floor(mine().length / 2)].createdAtMs);
		const r = await c.web<TxWeb[]>('transaction/web/fetch_transactions', {
			filters: { date: day, start_date: '2020-01-01', end_date: '2020-01-02' },
			page_size: 500,
		});
		const expected = mine().filter((t) => dayOf(t.createdAtMs) === day);
		expect(expected.length).toBeGreaterThan(0);
		expect(r.body.data).toHaveLength(expected.length);
		expect(r.body.data.every((t) => t.created_at.startsWith(day))).toBe(true);
	});

	it('start_date and end_date are inclusive', async () => {
		const days = [...new Set(mine().map((t) => dayOf(t.createdAtMs)))].sort();
		const [start, end] = [days[3], days[6]];
		const r = await c.web<TxWeb[]>('transaction/web/fetch_transactions', { filters: { start_date: start, end_date: end }, page_size: 1000 });
		const expected = mine().filter((t) => dayOf(t.createdAtMs) >= start && dayOf(t.createdAtMs) <= end);
		expect(r.body.data).toHaveLength(expected.length);
		expect(r.body.data.some((t) => t.created_at.startsWith(end))).toBe(true);
		expect(r.body.data.some((t) => t.created_at.startsWith(start))).toBe(true);
	});

	it('search matches narration and reference, case-insensitively', async () => {
		const byNarration = await c.web<TxWeb[]>('transaction/web/fetch_transactions', { filters: { search: 'SALARY' }, page_size: 1000 });
		const expected = mine().filter((t) => t.narration.toLowerCase().includes('salary'));
		expect(expected.length).toBeGreaterThan(0);
		expect(byNarration.body.data).toHaveLength(expected.length);
		const ref = mine()[10].reference;
		const byRef = await c.web<TxWeb[]>('transaction/web/fetch_transactions', { filters: { search: ref.slice(-7).toLowerCase() } });
		expect(byRef.body.data.map((t) => t.reference_number)).toContain(ref);
	});

	it('type, status, category, channel, reference_number and account_number', async () => {
		const t0 = mine()[5];
		const exact = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { reference_number: t0.reference } });
		expect(exact.body.data.map((t) => t.reference_number)).toEqual([t0.reference]);
		const f = { transaction_type: 'debit', status: 'success', transaction_category: 'transfer', channel: 'nip', account_number: '0823000001' };
		const r = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: f, page_size: 1000 });
		const expected = mine().filter((t) => t.type === 'debit' && t.status === 'success' && t.category === 'transfer' && t.channel === 'nip' && t.accountNumber === '0823000001');
		expect(expected.length).toBeGreaterThan(0);
		expect(r.body.data.map((t) => t.reference_number).sort()).toEqual(expected.map((t) => t.reference).sort());
		const collections = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { transaction_category: 'collection' }, page_size: 1000 });
		expect(collections.body.data.every((t) => t.transaction_type === 'credit')).toBe(true);
	});

	it('integration fetch_transactions refuses an inactive business with 60', async () => {
		await c.control('POST', 'business', { active: false });
		try {
			expectError(await c.api('transaction/api/fetch_transactions', {}), 200, '60');
		} finally {
			await c.control('POST', 'business', { active: true });
		}
		expectOk(await c.api('transaction/api/fetch_transactions', {}));
	});
});

describe('settlements', () => {
	const settled = () => sb.bank.settlements.filter((s) => s.businessId === sb.bank.main.id);

	it('exist for every successful collection credit in the seed', () => {
		const credits = mine().filter((t) => t.category === 'collection' && t.status === 'success');
		expect(settled().map((s) => s.reference).sort()).toEqual(credits.map((t) => t.reference).sort());
	});

	it('items carry the documented fields, no more (the cursor shape adds id and created_at)', async () => {
		const documented = ['reference', 'account_number', 'amount', 'settlement_date', 'status'];
		const r = await c.web<SettlementItem[]>('transaction/web/fetch_settlement_transactions', { limit: 3 });
		for (const s of r.body.data) expect(Object.keys(s).sort()).toEqual([...documented].sort());
		sb.configure({ listShape: 'cursor' });
		try {
			const cursor = await c.web<SettlementItem[]>('transaction/web/fetch_settlement_transactions', { limit: 3 });
			for (const s of cursor.body.data) expect(Object.keys(s).sort()).toEqual(['id', 'created_at', ...documented].sort());
		} finally {
			sb.configure({ listShape: 'documented' });
		}
	});

	it('page and cursor modes (cursor shape) return each settlement exactly once', async () => {
		sb.configure({ listShape: 'cursor' });
		try {
			const pages = await allPages<SettlementItem>('transaction/web/fetch_settlement_transactions', {}, 11);
			const cursor = await allCursor<SettlementItem>('transaction/web/fetch_settlement_transactions', {}, 13);
			expect(pages).toHaveLength(settled().length);
			expect(cursor.map((s) => s.id)).toEqual(pages.map((s) => s.id));
		} finally {
			sb.configure({ listShape: 'documented' });
		}
		const pages = await allPages<SettlementItem>('transaction/web/fetch_settlement_transactions', {}, 11);
		expect(pages.map((s) => s.reference).sort()).toEqual(settled().map((s) => s.reference).sort());
		for (const s of pages.slice(0, 5)) {
			expect(s.amount).toMatch(/^\d+\.\d{2}$/);
			expect(s.status).toBe('success');
			expect(Date.parse(s.settlement_date)).not.toBeNaN();
		}
	});

	it('filters by reference, account and day', async () => {
		const s0 = settled()[3];
		const r = await c.web<SettlementItem[]>('transaction/web/fetch_settlement_transactions', { filters: { reference: s0.reference } });
		expect(r.body.data.map((s) => s.reference)).toEqual([s0.reference]);
		const day = dayOf(s0.settlementDateMs);
		const byDay = await c.web<SettlementItem[]>('transaction/web/fetch_settlement_transactions', {
			filters: { date: day, account_number: s0.accountNumber },
			page_size: 500,
		});
		const expected = settled().filter((s) => dayOf(s.settlementDateMs) === day && s.accountNumber === s0.accountNumber);
		expect(byDay.body.data).toHaveLength(expected.length);
	});

	it('a collection adds a credit transaction and a settlement', async () => {
		const before = settled().length;
		const col = await c.control<TxApi>('POST', 'collections', { account_number: '0823100003', amount: '99.99', reference: 'COL-TEST-1', narration: 'test collection' });
		expectOk(col);
		expect(col.body.data).toMatchObject({ reference_number: 'COL-TEST-1', amount: '99.99', transaction_type: 'credit', transaction_category: 'collection', status: 'success' });
		expect(settled()).toHaveLength(before + 1);
		const r = await c.web<SettlementItem[]>('transaction/web/fetch_settlement_transactions', {});
		expect(r.body.data[0]).toMatchObject({ reference: 'COL-TEST-1', account_number: '0823100003', amount: '99.99', status: 'success' });
		const tx = await c.web<TxWeb[]>('transaction/web/fetch_transactions', {});
		expect(tx.body.data[0]).toMatchObject({ reference_number: 'COL-TEST-1', narration: 'test collection' });
	});
});
