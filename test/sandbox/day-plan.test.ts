/**
 * A real day's faults: a day plan makes the collections and settlements of a past day so that every expected
 * payment and every collection has a known outcome; what the lists then serve is checked here against those
 * outcomes with a plain reading of the records (not the node's matching), and a pending collection ends later.
 */
import { boot, Client, expectError, expectOk, withCli, type SettlementItem, type TxApi } from './helpers';
import type { SandboxHandle } from '../../sandbox';
import type { DayPlanResult } from '../../sandbox/state/dayPlan';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 2000 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const DAY = '2025-12-31';
const kobo = (amount: string) => BigInt(amount.replace('.', ''));

async function listAll<T>(path: string, filters: object): Promise<T[]> {
	const r = await c.web<T[]>(path, { filters, page: 1, page_size: 1000 });
	expectOk(r);
	return r.body.data;
}

describe('POST /__sandbox/day-plan (the standard mix)', () => {
	let plan: DayPlanResult;
	let credits: TxApi[];
	let settlements: SettlementItem[];

	beforeEach(async () => {
		const r = await c.control<DayPlanResult>('POST', 'day-plan', { date: DAY });
		expectOk(r);
		plan = r.body.data;
		const api = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { start_date: DAY, end_date: DAY, transaction_type: 'credit' }, page: 1, page_size: 1000 });
		credits = api.body.data;
		settlements = await listAll<SettlementItem>('transaction/web/fetch_settlement_transactions', { start_date: DAY, end_date: '2026-01-01' });
	});

	it('names every outcome of the matching, one row per customer account', () => {
		expect(plan.rows.map((r) => r.outcome).sort()).toEqual(
			['failed', 'matched', 'matched', 'matched', 'matched', 'matched', 'not paid yet', 'not paid yet', 'overpaid', 'paid in parts', 'paid twice', 'pending', 'underpaid'],
		);
		expect(new Set(plan.rows.map((r) => r.account_number)).size).toBe(plan.rows.length);
		expect(plan.rows[0]).toMatchObject({ account_number: '0823300001', customer_name: 'Adaeze Nwankwo', amount: '150000.00', outcome: 'matched', paid: '150000.00' });
	});

	it('the listed collections of each row\'s account add up to its outcome', () => {
		for (const row of plan.rows) {
			const mine = credits.filter((t) => t.account_number === row.account_number);
			const ok = mine.filter((t) => t.status === 'success');
			const paid = ok.reduce((sum, t) => sum + kobo(t.amount), 0n);
			const expected = kobo(row.amount);
			const seen =
				mine.length === 0
					? 'not paid yet'
					: ok.length === 0
						? mine[0].status
						: ok.length > 1
							? ok.every((t) => kobo(t.amount) === expected) ? 'paid twice' : 'paid in parts'
							: paid === expected ? 'matched' : paid < expected ? 'underpaid' : 'overpaid';
			expect({ account: row.account_number, seen, paid: row.paid }).toEqual({ account: row.account_number, seen: row.outcome, paid: `${paid / 100n}.${String(paid % 100n).padStart(2, '0')}` });
			if (row.outcome === 'paid in parts') expect(paid).toBe(expected);
		}
	});

	it('money sent to the wrong virtual account, and money no row expects, are unexpected', () => {
		const strayed = plan.rows.find((r) => r.paid_instead_to.length > 0)!;
		expect(strayed).toMatchObject({ customer_name: 'Kelechi Nnadi', outcome: 'not paid yet', paid_instead_to: [{ account_number: '0823100003', amount: '35000.00' }] });
		const unexpected = plan.unexpected.map((u) => u.reference);
		expect(unexpected).toContain(strayed.paid_instead_to[0].reference);
		expect(plan.unexpected.some((u) => u.account_number === '0823100002' && u.amount === '7500.00')).toBe(true);
		// With the generated history's collections of that day on accounts no row names.
		const rowAccounts = new Set(plan.rows.map((r) => r.account_number));
		expect(unexpected.sort()).toEqual(credits.filter((t) => t.status === 'success' && !rowAccounts.has(t.account_number)).map((t) => t.reference_number).sort());
	});

	it('every settlement outcome, as the settlement list serves the records (contract fields only)', () => {
		for (const s of settlements) expect(Object.keys(s).sort()).toEqual(['account_number', 'amount', 'reference', 'settlement_date', 'status']);
		const outcome = (reference: string) => plan.settlements.find((s) => s.reference === reference)?.outcome;
		const first = (name: string) => plan.rows.find((r) => r.customer_name === name)!.collections[0].reference;
		const of = (reference: string) => settlements.filter((s) => s.reference === reference);
		expect(outcome(first('Adaeze Nwankwo'))).toBe('settled');
		expect(of(first('Bola Adeyemi')).map((s) => s.settlement_date.slice(0, 10))).toEqual(['2026-01-01']);
		expect(outcome(first('Bola Adeyemi'))).toBe('settled');
		expect([outcome(first('Chiamaka Obi')), of(first('Chiamaka Obi'))]).toEqual(['not settled yet', []]);
		expect([outcome(first('Danjuma Musa')), of(first('Danjuma Musa')).map((s) => s.amount)]).toEqual(['settled with another amount', ['119950.00']]);
		expect([outcome(first('Efe Okoro')), of(first('Efe Okoro')).map((s) => s.amount)]).toEqual(['settled twice', ['30000.50', '30000.50']]);
		const orphans = plan.settlements.filter((s) => s.outcome === 'settlement without a collection');
		expect(orphans).toHaveLength(1);
		expect(of(orphans[0].reference)).toMatchObject([{ account_number: '0823300001', amount: '5000.00' }]);
		expect(credits.some((t) => t.reference_number === orphans[0].reference)).toBe(false);
		// Pending and failed collections have no settlement and are not in the check.
		for (const name of ['Lami Danladi', 'Musa Ibrahim']) expect([outcome(first(name)), of(first(name))]).toEqual([undefined, []]);
	});

	it('credits each account with its successful collections only', () => {
		expect(c.balance('0823300006')).toBe(5_500_000n);
		expect(c.balance('0823300012')).toBe(0n);
		expect(c.balance('0823300013')).toBe(0n);
	});

	it('applies a plan whole or not at all, and only to a past day', async () => {
		expectError(await c.control('POST', 'day-plan', { date: DAY }), 400, '99', /has collections of its own/);
		const today = new Date().toISOString().slice(0, 10);
		expectError(await c.control('POST', 'day-plan', { date: today }), 400, '99', /has not ended yet/);
	});
});

describe('POST /__sandbox/day-plan (a plan of one\'s own)', () => {
	it('refuses a row whose account has collections of its own that day, an account twice, and changes nothing', async () => {
		const before = sb.bank.transactions.length;
		const busy = sb.bank.transactions.find((t) => t.createdAtMs >= Date.parse(`${DAY}T00:00:00Z`) && t.type === 'credit')!;
		const row = (account: string) => ({ account_number: account, amount: '100.00', outcome: 'matched' });
		expectError(await c.control('POST', 'day-plan', { date: DAY, payments: [row(busy.accountNumber)] }), 400, '99', /has collections of its own/);
		expectError(
			await c.control('POST', 'day-plan', { date: DAY, payments: [{ ...row('0823400001'), customer_name: 'A' }, { ...row('0823400001'), customer_name: 'B' }] }),
			400,
			'99',
			/another row's too/,
		);
		expectError(await c.control('POST', 'day-plan', { date: DAY, payments: [row('0823400002')] }), 400, '99', /give customer_name/);
		expectError(await c.control('POST', 'day-plan', { date: DAY, payments: [{ ...row('0823400003'), customer_name: 'C' }], unexpected: [{ account_number: '0823000005', amount: '1.00' }] }), 400, '99', /no active account/);
		expect(sb.bank.transactions.length).toBe(before);
		expect(sb.bank.accounts.has('0823400001')).toBe(false);
	});

	it('makes exactly what a row asks: an underpayment of a chosen amount', async () => {
		const r = await c.control<DayPlanResult>('POST', 'day-plan', {
			date: DAY,
			payments: [{ account_number: '0823400001', customer_name: 'Test Customer', amount: '1,500.00'.replace(',', ''), outcome: 'underpaid', paid: '0.10' }],
		});
		expectOk(r);
		expect(r.body.data.rows[0]).toMatchObject({ outcome: 'underpaid', amount: '1500.00', paid: '0.10', collections: [{ amount: '0.10', status: 'success' }] });
	});
});

describe('a pending collection that ends later', () => {
	const pending = async (reference: string) => {
		const r = await c.control<TxApi>('POST', 'collections', { account_number: '0823100001', amount: '2500.00', reference, status: 'pending' });
		expectOk(r);
		return r.body.data;
	};

	it('pending, then failed: no money, no settlement, no COLLECTION_SUCCESS', async () => {
		const balance = c.balance('0823100001');
		expect((await pending('PEND-1')).status).toBe('pending');
		expect(sb.bank.settlements.some((s) => s.reference === 'PEND-1')).toBe(false);
		const done = await c.control<{ status: string }>('POST', 'collections/finish', { reference: 'PEND-1', status: 'failed' });
		expectOk(done);
		expect(done.body.data.status).toBe('failed');
		expect(sb.bank.findTransaction(sb.bank.main.id, 'PEND-1')?.status).toBe('failed');
		expect(c.balance('0823100001')).toBe(balance);
		expect(sb.bank.settlements.some((s) => s.reference === 'PEND-1')).toBe(false);
		expectError(await c.control('POST', 'collections/finish', { reference: 'PEND-1', status: 'success' }), 400, '99', /is failed, not pending/);
		expectError(await c.control('POST', 'collections/finish', { reference: 'NO-SUCH', status: 'failed' }), 404, '25');
	});

	it('pending, then successful: credited and settled when it ends', async () => {
		const balance = c.balance('0823100001');
		await pending('PEND-2');
		expectOk(await c.control('POST', 'collections/finish', { reference: 'PEND-2', status: 'success' }));
		expect(c.balance('0823100001')).toBe(balance + 250_000n);
		expect(sb.bank.settlements.filter((s) => s.reference === 'PEND-2').map((s) => s.amount)).toEqual([250_000n]);
	});
});

describe('npm run sandbox -- --day-plan', () => {
	it('applies the standard plan at start, to the day given or the history\'s last day', async () => {
		await withCli(['--port', '0', '--quiet', '--history-end', '2026-01-01', '--day-plan'], (banner) => {
			expect(banner).toContain('Day plan applied to 2025-12-31: 13 expected payments (0823300001 matched,');
		});
		await withCli(['--port', '0', '--quiet', '--history-end', '2026-01-01', '--day-plan', '2025-12-20'], (banner) => {
			expect(banner).toMatch(/Day plan applied to 2025-12-20: .*0823300013 failed\)/);
		});
	});
});
