/**
 * What a bank that is restarted every day (`npm run dev`) must get right: history that ends today, ids that never
 * repeat one of an earlier run, and registrations of receivers that are gone stop costing deliveries.
 */
import { startSandbox, type SandboxHandle } from '../../sandbox';
import { waitFor } from '../support/waitFor';
import { boot, Client, expectOk, sleep } from './helpers';
import { Receiver } from './receiver';

jest.setTimeout(30_000);

const DAY = 86_400_000;

describe('generated history', () => {
	it('ends at the start of today (UTC) by default, so yesterday has transactions and settlements', async () => {
		const sb = await startSandbox({ port: 0, transactions: 2000 });
		try {
			const now = Date.now();
			const today = now - (now % DAY);
			const yesterday = new Date(today - DAY).toISOString().slice(0, 10);
			expect(sb.seed.historyEnd).toBe(new Date(today).toISOString());
			const newest = sb.bank.transactions[sb.bank.transactions.length - 1];
			expect(new Date(newest.createdAtMs).toISOString().slice(0, 10)).toBe(yesterday);
			const c = new Client(sb);
			const settled = await c.web<Array<{ reference: string }>>('transaction/web/fetch_settlement_transactions', {
				filters: { date: yesterday },
				page_size: 100,
			});
			expectOk(settled);
			expect(settled.body.data.length).toBeGreaterThan(0);
		} finally {
			await sb.close();
		}
	});

	it('an explicit end gives the same data whatever the day (what tests naming dates use)', async () => {
		const end = Date.UTC(2026, 0, 1);
		const [a, b] = await Promise.all([startSandbox({ port: 0, historyEndMs: end }), startSandbox({ port: 0, historyEndMs: end })]);
		try {
			expect(a.bank.transactions.map((t) => [t.id, t.reference, t.createdAtMs])).toEqual(b.bank.transactions.map((t) => [t.id, t.reference, t.createdAtMs]));
			expect(Math.max(...a.bank.transactions.map((t) => t.createdAtMs))).toBeLessThan(end);
		} finally {
			await Promise.all([a.close(), b.close()]);
		}
	});
});

describe('ids across restarts', () => {
	async function session(restored: SandboxHandle['bank']['webhooks'] = []) {
		const { sb, c } = await boot({ transactions: 10 });
		// What `npm run dev` does: the registrations of the earlier run are put back before anything else.
		sb.bank.webhooks.push(...restored);
		const hook = await c.api<{ id: string }>('customer/api/create_webhook', { url: `http://127.0.0.1:9/hook-${restored.length}`, events: ['COLLECTION_SUCCESS'] });
		const collection = await c.control<{ reference_number: string }>('POST', 'collections', { account_number: '0823100001', amount: '10.00' });
		const reference = collection.body.data.reference_number;
		const webhooks = sb.bank.webhooks.map((w) => ({ ...w }));
		const id = sb.bank.findTransaction(sb.bank.main.id, reference)?.id;
		await sb.close();
		return { hookId: hook.body.data.id, collection: { id, reference_number: reference }, webhooks };
	}

	it('a restarted bank gives new records ids and references no earlier run gave', async () => {
		const first = await session();
		const second = await session(first.webhooks);
		expect(second.hookId).not.toBe(first.hookId);
		expect(new Set(second.webhooks.map((w) => w.id)).size).toBe(2);
		expect(second.collection.id).toEqual(expect.any(String));
		expect(second.collection.id).not.toBe(first.collection.id);
		expect(second.collection.reference_number).not.toBe(first.collection.reference_number);
	});
});

describe('registrations that reach nobody', () => {
	let sb: SandboxHandle;
	let c: Client;
	let rx: Receiver;

	beforeAll(async () => {
		({ sb, c } = await boot({ transactions: 10, webhookRetry: { attempts: 2, baseDelayMs: 20 } }));
		rx = await new Receiver().start();
	});
	afterAll(async () => {
		await sb.close();
		await rx.close();
	});
	beforeEach(() => {
		sb.reset();
		rx.clear();
	});

	const attemptsTo = (url: string) => sb.deliveries().filter((d) => d.url === url).length;
	async function collect(expectedAttempts: Record<string, number>) {
		await c.control('POST', 'collections', { account_number: '0823100001', amount: '1.00' });
		await waitFor('the delivery attempts', () => Object.entries(expectedAttempts).every(([url, n]) => attemptsTo(url) >= n));
	}
	const ledgerHook = async (url: string) =>
		(await c.control<{ webhooks: Array<{ url: string; disabled_at?: string }> }>('GET', 'ledger')).body.data.webhooks.find((w) => w.url === url);

	it('a URL answering 404 or refusing the connection is disabled after 3 deliveries in a row; a live one keeps its deliveries', async () => {
		const gone = `${rx.url}/gone`;
		const refused = 'http://127.0.0.1:1/refused';
		const live = `${rx.url}/live`;
		for (const url of [gone, refused, live]) await c.api('customer/api/create_webhook', { url, events: ['COLLECTION_SUCCESS'] });
		rx.answer = (path) => (path === '/gone' ? 404 : 200);
		for (let i = 1; i <= 3; i++) await collect({ [gone]: 2 * i, [refused]: 2 * i, [live]: i });
		expect((await ledgerHook(gone))?.disabled_at).toBeDefined();
		expect((await ledgerHook(refused))?.disabled_at).toBeDefined();
		expect((await ledgerHook(live))?.disabled_at).toBeUndefined();

		await collect({ [live]: 4 });
		await sleep(100);
		expect([attemptsTo(gone), attemptsTo(refused), attemptsTo(live)]).toEqual([6, 6, 4]);
	});

	it('registering a disabled URL again turns it back on', async () => {
		const url = `${rx.url}/back`;
		await c.api('customer/api/create_webhook', { url, events: ['COLLECTION_SUCCESS'] });
		rx.answer = () => 404;
		for (let i = 1; i <= 3; i++) await collect({ [url]: 2 * i });
		expect((await ledgerHook(url))?.disabled_at).toBeDefined();
		rx.answer = () => 200;
		await c.api('customer/api/create_webhook', { url, events: ['COLLECTION_SUCCESS'] });
		await collect({ [url]: 7 });
		expect((await ledgerHook(url))?.disabled_at).toBeUndefined();
	});

	it('a receiver that answers 500 is failing, not gone: it stays registered', async () => {
		const url = `${rx.url}/broken`;
		await c.api('customer/api/create_webhook', { url, events: ['COLLECTION_SUCCESS'] });
		rx.answer = () => 500;
		for (let i = 1; i <= 4; i++) await collect({ [url]: 2 * i });
		expect((await ledgerHook(url))?.disabled_at).toBeUndefined();
	});
});
