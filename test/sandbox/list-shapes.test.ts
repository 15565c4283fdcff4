/**
 * The list shapes a real bank may have (sandbox/README.md, "List shapes"): the documented fields or ids and
 * cursors, a page cap, a list quota, the order records were written in, malformed entries, and a hook that lands
 * records between two list requests.
 */
import type { MalformedKind, SandboxHandle } from '../../sandbox';
import { boot, Client, expectError, expectOk, withCli, type AccountItem, type SettlementItem, type TxApi, type TxWeb } from './helpers';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 120, seed: 5 }));
});
afterAll(() => sb.close());
afterEach(() => {
	sb.configure({ listShape: 'documented', pageCap: null, pageOffsets: 'served', listQuotaPerMinute: null, listOrder: 'created' });
	sb.clearMalformed();
});

const API = 'transaction/api/fetch_transactions';
const WEB = 'transaction/web/fetch_transactions';
const SETTLEMENTS = 'transaction/web/fetch_settlement_transactions';
const mine = () => sb.bank.transactions.filter((t) => t.businessId === sb.bank.main.id);
const newestFirst = () => [...mine()].reverse();
const refs = (items: Array<{ reference_number?: string }>) => items.map((t) => t.reference_number);
let seq = 0;
const collect = (atMs = Date.now()) => sb.bank.collect({ accountNumber: '0823100001', amount: 100n, reference: `COL-SHAPE-${++seq}` }, atMs).transaction;

describe('listShape', () => {
	it('is documented by default, and set by startSandbox, configure and POST /__sandbox/config', async () => {
		expect((await c.control<{ listShape: string }>('GET', 'config')).body.data.listShape).toBe('documented');
		expect((await c.api<TxApi[]>(API, { limit: 1 })).body.data[0].id).toBeUndefined();
		const r = await c.control<{ listShape: string }>('POST', 'config', { listShape: 'cursor' });
		expectOk(r);
		expect(r.body.data.listShape).toBe('cursor');
		expect((await c.api<TxApi[]>(API, { limit: 1 })).body.data[0].id).toBe(newestFirst()[0].id);
		expect((await c.control('POST', 'config', { listShape: 'ids' })).status).toBe(400);
		const other = await boot({ transactions: 5, listShape: 'cursor' });
		try {
			expect((await other.c.web<TxWeb[]>(WEB, { limit: 1 })).body.data[0].id).toEqual(expect.any(String));
		} finally {
			await other.sb.close();
		}
	});

	it('reset keeps the list configuration', async () => {
		sb.configure({ listShape: 'cursor', pageCap: 7, listOrder: 'recorded', listQuotaPerMinute: 1000 });
		sb.reset();
		expect((await c.control('GET', 'config')).body.data).toMatchObject({ listShape: 'cursor', pageCap: 7, listOrder: 'recorded', listQuotaPerMinute: 1000 });
	});

	it('in the documented shape cursor_id is ignored: the cursor instant is skipped; in the cursor shape it is honoured', async () => {
		const base = Date.parse('2025-12-31T12:00:00.000Z');
		const tied = [collect(base), collect(base), collect(base)].sort((a, b) => (a.id < b.id ? 1 : -1));
		const cursor = { cursor_created_at: new Date(base).toISOString(), cursor_id: tied[0].id, limit: 5 };
		const documented = await c.api<TxApi[]>(API, cursor);
		expect(refs(documented.body.data)).not.toContain(tied[1].reference);
		sb.configure({ listShape: 'cursor' });
		const honoured = await c.api<TxApi[]>(API, cursor);
		expect(refs(honoured.body.data).slice(0, 2)).toEqual([tied[1].reference, tied[2].reference]);
	});

	it('account lists carry id and created_at in either shape (their only paging is the cursor)', async () => {
		const r = await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { limit: 2 });
		expect(Object.keys(r.body.data[0])).toEqual(expect.arrayContaining(['id', 'created_at']));
	});
});

describe('pageCap', () => {
	it('serves at most N per page whatever page_size or limit asks; page N starts at (N-1) × the capped size', async () => {
		sb.configure({ pageCap: 25 });
		const all = refs(newestFirst().map((t) => ({ reference_number: t.reference })));
		const page1 = await c.web<TxWeb[]>(WEB, { page: 1, page_size: 100 });
		const page2 = await c.web<TxWeb[]>(WEB, { page: 2, page_size: 100 });
		expect(refs(page1.body.data)).toEqual(all.slice(0, 25));
		expect(refs(page2.body.data)).toEqual(all.slice(25, 50));
		expect((await c.api<TxApi[]>(API, { limit: 60 })).body.data).toHaveLength(25);
		expect((await c.web<TxWeb[]>(WEB, { page_size: 10 })).body.data).toHaveLength(10);
	});

	it("with pageOffsets 'asked', page N starts at (N-1) × the size asked: the records past a capped page are not served by number", async () => {
		sb.configure({ pageCap: 25, pageOffsets: 'asked' });
		const all = refs(newestFirst().map((t) => ({ reference_number: t.reference })));
		expect(refs((await c.web<TxWeb[]>(WEB, { page: 2, page_size: 100 })).body.data)).toEqual(all.slice(100, 125));
		expect(refs((await c.web<TxWeb[]>(WEB, { page: 2, page_size: 25 })).body.data)).toEqual(all.slice(25, 50));
		expect((await c.control('POST', 'config', { pageOffsets: 'sideways' })).status).toBe(400);
	});

	it('caps cursor pages, settlements, accounts and members too', async () => {
		sb.configure({ pageCap: 3, listShape: 'cursor' });
		const first = await c.api<TxApi[]>(API, { limit: 50 });
		expect(first.body.data).toHaveLength(3);
		const last = first.body.data[2];
		expect((await c.api<TxApi[]>(API, { limit: 50, cursor_created_at: last.created_at, cursor_id: last.id })).body.data).toHaveLength(3);
		expect((await c.web<SettlementItem[]>(SETTLEMENTS, { page_size: 50 })).body.data).toHaveLength(3);
		expect((await c.web<AccountItem[]>('account/web/fetch_customer_accounts', { limit: 50 })).body.data).toHaveLength(3);
		expect((await c.web<AccountItem[]>('account/web/fetch_account_summaries', { limit: 50 })).body.data).toHaveLength(3);
		expect((await c.web<unknown[]>('auth/web/fetch_members', { page_size: 50 })).body.data).toHaveLength(3);
	});

	it('accepts null (no cap) and refuses 0 or a fraction', async () => {
		expect((await c.control('POST', 'config', { pageCap: 0 })).status).toBe(400);
		expect((await c.control('POST', 'config', { pageCap: 2.5 })).status).toBe(400);
		expectOk(await c.control('POST', 'config', { pageCap: 4 }));
		expect((await c.web<TxWeb[]>(WEB, { page_size: 50 })).body.data).toHaveLength(4);
		expectOk(await c.control('POST', 'config', { pageCap: null }));
		expect((await c.web<TxWeb[]>(WEB, { page_size: 50 })).body.data).toHaveLength(50);
	});
});

describe('listQuotaPerMinute', () => {
	afterEach(() => jest.useRealTimers());

	it('refuses the list requests beyond N in one clock minute with 429, code 29 and Retry-After up to the next minute', async () => {
		const minute = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
		jest.useFakeTimers({ now: minute + 45_500, doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'queueMicrotask', 'hrtime', 'performance'] });
		await c.apiToken();
		await c.webToken();
		sb.configure({ listQuotaPerMinute: 3 });
		expectOk(await c.api(API, {}));
		expectOk(await c.web(SETTLEMENTS, {}));
		// Not a list: not counted.
		expectOk(await c.api('account/api/get_account_balance', { account_number: '0823000001' }));
		expectOk(await c.web('account/web/fetch_customer_accounts', {}));
		const refused = await c.web(WEB, {});
		expectError(refused, 429, '29', /Too many requests: retry after 15 seconds/);
		expect(refused.headers.get('retry-after')).toBe('15');
		expectError(await c.api('transaction/transfer/api/fetch_banks', {}), 429, '29');
		expect(sb.requests().at(-1)).toMatchObject({ status: 429, response_code: '29' });
		jest.setSystemTime(minute + 60_000);
		expectOk(await c.web(WEB, {}));
	});
});

describe('listOrder', () => {
	it("'created' lists a record written late by its created_at; 'recorded' lists it on top, as written", async () => {
		// After the generated history's end (2026-01-01): the newest two records of the bank.
		const newest = collect(Date.parse('2026-01-01T02:00:00.000Z'));
		const late = collect(Date.parse('2026-01-01T01:00:00.000Z'));
		const created = await c.api<TxApi[]>(API, { limit: 3 });
		expect(refs(created.body.data).slice(0, 2)).toEqual([newest.reference, late.reference]);
		sb.configure({ listOrder: 'recorded' });
		const recorded = await c.api<TxApi[]>(API, { limit: 3 });
		expect(refs(recorded.body.data).slice(0, 2)).toEqual([late.reference, newest.reference]);
		// Page numbers follow the same order; a cursor keeps what is strictly older than it, in that order.
		expect(refs((await c.web<TxWeb[]>(WEB, { page: 2, page_size: 1 })).body.data)).toEqual([newest.reference]);
		const older = await c.api<TxApi[]>(API, { cursor_created_at: '2026-01-01T01:30:00.000Z', limit: 2 });
		expect(refs(older.body.data)[0]).toBe(late.reference);
		const settlements = await c.web<SettlementItem[]>(SETTLEMENTS, { limit: 2 });
		expect(settlements.body.data.map((s) => s.reference)).toEqual([late.reference, newest.reference]);
	});
});

describe('malformed records', () => {
	const kinds: Array<[MalformedKind, (item: unknown) => boolean]> = [
		['null', (item) => item === null],
		['notAnObject', (item) => typeof item === 'string'],
		['missingReference', (item) => typeof item === 'object' && item !== null && !('reference_number' in item) && !('reference' in item)],
		['missingCreatedAt', (item) => typeof item === 'object' && item !== null && !('created_at' in item) && !('settlement_date' in item)],
		['invalidCreatedAt', (item) => Number.isNaN(Date.parse(String((item as { created_at?: string; settlement_date?: string }).created_at ?? (item as { settlement_date: string }).settlement_date)))],
	];

	it.each(kinds)('%s: served so in every list, in its own slot', async (as, looksSo) => {
		const target = newestFirst()[4];
		const settlementSlot = sb.bank.settlements.filter((s) => s.businessId === sb.bank.main.id).reverse().findIndex((s) => s.reference === target.reference);
		expectOk(await c.control('POST', 'malformed', { reference: target.reference, as }));
		for (const list of [await c.api<unknown[]>(API, { limit: 10 }), await c.web<unknown[]>(WEB, { limit: 10 })]) {
			expect(list.body.data).toHaveLength(10);
			expect(looksSo(list.body.data[4])).toBe(true);
			expect(refs(list.body.data.filter((_, i) => i !== 4) as TxApi[])).toEqual(newestFirst().filter((_, i) => i !== 4).slice(0, 9).map((t) => t.reference));
		}
		if (settlementSlot >= 0) {
			const settlements = await c.web<unknown[]>(SETTLEMENTS, { page_size: 100 });
			expect(looksSo(settlements.body.data[settlementSlot])).toBe(true);
		}
	});

	it('listed by GET, cleared by DELETE and by reset; an unknown reference or kind is refused', async () => {
		const target = newestFirst()[0];
		sb.markMalformed(target.reference, 'null');
		expect((await c.control('GET', 'malformed')).body.data).toEqual({ [target.reference]: 'null' });
		expect((await c.api<unknown[]>(API, { limit: 1 })).body.data).toEqual([null]);
		expectOk(await c.control('DELETE', 'malformed'));
		expect(refs((await c.api<TxApi[]>(API, { limit: 1 })).body.data)).toEqual([target.reference]);
		expect((await c.control('POST', 'malformed', { reference: 'NO-SUCH-REF', as: 'null' })).status).toBe(400);
		expect((await c.control('POST', 'malformed', { reference: target.reference, as: 'garbled' })).status).toBe(400);
		sb.markMalformed(target.reference, 'notAnObject');
		sb.reset();
		expect((await c.control('GET', 'malformed')).body.data).toEqual({});
	});
});

describe('onListServed', () => {
	it('runs after each transaction or settlement page is sent; a record it lands shifts the next page', async () => {
		const served: string[] = [];
		const landed: string[] = [];
		const off = sb.onListServed(({ path, items }) => {
			served.push(`${path.split('/').pop()}:${items}`);
			landed.push(collect(Date.parse('2030-01-01T00:00:00.000Z') + seq).reference);
		});
		try {
			const page1 = await c.web<TxWeb[]>(WEB, { page: 1, page_size: 5 });
			const page2 = await c.web<TxWeb[]>(WEB, { page: 2, page_size: 5 });
			// The record landed at the head after page 1 pushed page 1's last record down onto page 2.
			expect(page2.body.data[0].reference_number).toBe(page1.body.data[4].reference_number);
			await c.web(SETTLEMENTS, { limit: 2 });
			await c.web('account/web/fetch_customer_accounts', {});
			expect(served).toEqual(['fetch_transactions:5', 'fetch_transactions:5', 'fetch_settlement_transactions:2']);
		} finally {
			off();
		}
		await c.web(WEB, {});
		expect(landed).toHaveLength(3);
	});
});

describe('CLI flags', () => {
	it('npm run sandbox -- --list-shape cursor --page-cap 50 --list-quota 10 --list-order recorded', async () => {
		const args = ['--port', '0', '--quiet', '--list-shape', 'cursor', '--page-cap', '50', '--list-quota', '10', '--list-order', 'recorded'];
		await withCli(args, async (banner) => {
			const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
			const config = (await (await fetch(`${url}/__sandbox/config`)).json()) as { data: Record<string, unknown> };
			expect(config.data).toMatchObject({ listShape: 'cursor', pageCap: 50, listQuotaPerMinute: 10, listOrder: 'recorded' });
			expect(banner).toContain('Lists: list items carry id (cursor shape); at most 50 records per page; at most 10 list requests a minute; lists in the order records were written.');
		});
	});
});
