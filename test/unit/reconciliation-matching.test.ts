/** The matching core of Reconciliation → Match Expected Payments: pure, so every rule is checked here in full. */
import type { IDataObject } from 'n8n-workflow';

import type { Collection, ExpectedPayment, RowResult } from '../../nodes/common/actions/reconciliation/matching';
import { matchKey, PAYMENT_OUTCOMES, reconcile } from '../../nodes/common/actions/reconciliation/matching';
import { withFields } from '../../nodes/common/actions/reconciliation/paymentItems';
import { koboForPeople, koboToAmount } from '../../nodes/common/amounts';
import { toKobo } from '../../nodes/common/validation';

const kobo = (amount: string | number) => {
	const { kobo: value, problem } = toKobo(amount);
	if (value === undefined) throw new Error(problem);
	return value;
};
const row = (key: string, amount: string | number): ExpectedPayment => ({ key: matchKey(key), kobo: kobo(amount) });
let clock = 0;
const paid = (key: string, amount: string | number, status = 'success', reference = `R${++clock}`): Collection<string> => ({
	key: matchKey(key),
	reference,
	kobo: kobo(amount),
	status,
	createdAt: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString(),
	record: reference,
});
const view = (result: RowResult<string>) => ({
	outcome: result.outcome,
	paid: koboToAmount(result.paid),
	difference: koboToAmount(result.difference),
	references: result.collections.map((c) => c.record),
});

describe('amounts', () => {
	test.each<[string | number, string]>([
		['0.10', '0.10'],
		['0.1', '0.10'],
		[0.1, '0.10'],
		['1,500.00', '1500.00'],
		['1500', '1500.00'],
		[1500.5, '1500.50'],
		[' 007.5 ', '7.50'],
		['90071992547409.93', '90071992547409.93'],
		['123,456,789,012,345,678.99', '123456789012345678.99'],
	])('%j reads as %s', (input, amount) => {
		expect(koboToAmount(kobo(input))).toBe(amount);
	});

	test.each<[unknown, RegExp]>([
		['1.005', /at most 2 decimals/],
		['1,50', /comma that is not a thousands separator/],
		[0.30000000000000004, /too long to be exact/],
		[Number('90071992547409.93'), /too long to be exact/],
		['-5', /positive amount/],
		['0.00', /greater than zero/],
		['abc', /positive amount/],
		[null, /must be an amount/],
	])('%j is refused', (input, problem) => {
		expect(toKobo(input).problem).toMatch(problem);
	});

	test('0.10 and 0.1 match each other; 1,500.00 matches 1500', () => {
		const result = reconcile([row('A', '0.10'), row('B', '1,500.00')], [paid('A', '0.1'), paid('B', '1500')], 0n);
		expect(result.rows.map((r) => r.outcome)).toEqual(['matched', 'matched']);
	});

	test('amounts beyond 2^53 kobo stay exact: one kobo apart is underpaid by NGN 0.01', () => {
		const big = '90071992547409.93'; // 2^53 + 1 kobo, which a float cannot hold
		expect(Number(kobo(big))).toBe(Number(kobo('90071992547409.92')));
		const result = reconcile([row('A', big), row('B', big)], [paid('A', '90071992547409.92'), paid('B', big)], 0n);
		expect(view(result.rows[0])).toMatchObject({ outcome: 'underpaid', difference: '-0.01' });
		expect(result.rows[0].note).toBe('short by NGN 0.01');
		expect(view(result.rows[1])).toMatchObject({ outcome: 'matched', paid: big });
	});

	test('notes print amounts grouped, for people', () => {
		expect(koboForPeople(-123456789n)).toBe('NGN 1,234,567.89');
		expect(koboForPeople(5n)).toBe('NGN 0.05');
	});
});

describe('each outcome', () => {
	test('matched, underpaid, overpaid, paid in parts, paid twice, not paid yet, pending, failed, unexpected', () => {
		const result = reconcile(
			[row('M', 1000), row('U', 1000), row('O', 1000), row('P', 1000), row('T', 1000), row('N', 1000), row('PE', 1000), row('F', 1000)],
			[
				paid('M', 1000, 'success', 'm1'),
				paid('U', 600, 'success', 'u1'),
				paid('O', 1200, 'success', 'o1'),
				paid('P', 400, 'success', 'p1'),
				paid('P', 600, 'success', 'p2'),
				paid('T', 1000, 'success', 't1'),
				paid('T', 1000, 'success', 't2'),
				paid('PE', 1000, 'pending', 'pe1'),
				paid('F', 1000, 'failed', 'f1'),
				paid('X', 50, 'success', 'x1'),
				paid('Y', 70, 'pending', 'y1'),
			],
			0n,
		);
		expect(result.rows.map(view)).toEqual([
			{ outcome: 'matched', paid: '1000.00', difference: '0.00', references: ['m1'] },
			{ outcome: 'underpaid', paid: '600.00', difference: '-400.00', references: ['u1'] },
			{ outcome: 'overpaid', paid: '1200.00', difference: '200.00', references: ['o1'] },
			{ outcome: 'paid in parts', paid: '1000.00', difference: '0.00', references: ['p1', 'p2'] },
			{ outcome: 'paid twice', paid: '2000.00', difference: '1000.00', references: ['t1', 't2'] },
			{ outcome: 'not paid yet', paid: '0.00', difference: '-1000.00', references: [] },
			{ outcome: 'pending', paid: '0.00', difference: '-1000.00', references: ['pe1'] },
			{ outcome: 'failed', paid: '0.00', difference: '-1000.00', references: ['f1'] },
		]);
		expect(result.rows.map((r) => r.note)).toEqual([
			'paid in full',
			'short by NGN 400.00',
			'NGN 200.00 more than expected',
			'paid in full in 2 payments',
			'paid 2 times: NGN 1,000.00 more than expected',
			'no payment received in the period',
			'a payment of NGN 1,000.00 is pending at the bank; nothing received yet',
			'a payment of NGN 1,000.00 failed at the bank; nothing received',
		]);
		// Only successful money without an expectation is unexpected; a pending one of no row is left out.
		expect(result.unexpected.map((c) => c.record)).toEqual(['x1']);
		expect(PAYMENT_OUTCOMES).toHaveLength(9);
	});

	test('pending or failed only when no successful money came: a failed try then a success is matched', () => {
		const result = reconcile([row('A', 500), row('B', 500)], [paid('A', 500, 'failed'), paid('A', 500), paid('B', 200), paid('B', 500, 'pending')], 0n);
		expect(result.rows.map((r) => r.outcome)).toEqual(['matched', 'underpaid']);
	});

	test('a pending collection explains a row before a failed one; each explains one row', () => {
		const result = reconcile([row('A', 500), row('A', 500), row('A', 500)], [paid('A', 500, 'failed'), paid('A', 500, 'pending')], 0n);
		expect(result.rows.map((r) => r.outcome)).toEqual(['pending', 'failed', 'not paid yet']);
	});

	test('over- and underpaid in parts say how many payments', () => {
		const result = reconcile([row('A', 1000), row('B', 1000)], [paid('A', 300), paid('A', 300), paid('B', 700), paid('B', 700)], 0n);
		expect(result.rows.map((r) => [r.outcome, r.note])).toEqual([
			['underpaid', 'short by NGN 400.00 in 2 payments'],
			['overpaid', 'NGN 400.00 more than expected in 2 payments'],
		]);
	});

	test('keys ignore case and spaces; an empty key is never expected', () => {
		const result = reconcile([row(' inv-17 ', 10)], [paid('INV-17', 10), paid('', 10)], 0n);
		expect(result.rows[0].outcome).toBe('matched');
		expect(result.unexpected).toHaveLength(1);
	});
});

describe('several rows with one key', () => {
	test('two invoices with the same reference: each takes the collection of its own amount, whatever the order paid', () => {
		const result = reconcile([row('INV', 700), row('INV', 300)], [paid('INV', 300, 'success', 'c300'), paid('INV', 700, 'success', 'c700')], 0n);
		expect(result.rows.map(view)).toEqual([
			{ outcome: 'matched', paid: '700.00', difference: '0.00', references: ['c700'] },
			{ outcome: 'matched', paid: '300.00', difference: '0.00', references: ['c300'] },
		]);
		expect(result.unexpected).toEqual([]);
	});

	test('two invoices on one account, one paid: the first in input order is matched, the second not paid yet', () => {
		const result = reconcile([row('VA', 500), row('VA', 500)], [paid('VA', 500)], 0n);
		expect(result.rows.map((r) => r.outcome)).toEqual(['matched', 'not paid yet']);
	});

	test('two collections summing to one invoice, beside an exact one: exact first, then parts in order', () => {
		const result = reconcile([row('VA', 1000), row('VA', 400)], [paid('VA', 600, 'success', 'a'), paid('VA', 400, 'success', 'b'), paid('VA', 400, 'success', 'c')], 0n);
		expect(result.rows.map(view)).toEqual([
			{ outcome: 'paid in parts', paid: '1000.00', difference: '0.00', references: ['a', 'c'] },
			{ outcome: 'matched', paid: '400.00', difference: '0.00', references: ['b'] },
		]);
	});

	test('a leftover of a row amount makes that row paid twice; any other leftover overpays the last row', () => {
		const twice = reconcile([row('VA', 500), row('VA', 800)], [paid('VA', 500), paid('VA', 800), paid('VA', 500)], 0n);
		expect(twice.rows.map((r) => r.outcome)).toEqual(['paid twice', 'matched']);
		const extra = reconcile([row('VA', 500), row('VA', 800)], [paid('VA', 500), paid('VA', 800), paid('VA', 20)], 0n);
		expect(extra.rows.map(view)).toEqual([
			expect.objectContaining({ outcome: 'matched' }),
			expect.objectContaining({ outcome: 'overpaid', difference: '20.00' }),
		]);
		expect(extra.unexpected).toEqual([]);
	});
});

describe('tolerance: |paid − expected| <= tolerance', () => {
	test.each<[string, string, string]>([
		['999.50', '0.50', 'matched'],
		['1000.50', '0.50', 'matched'],
		['999.49', '0.50', 'underpaid'],
		['1000.51', '0.50', 'overpaid'],
		['999.99', '0.00', 'underpaid'],
	])('paid %s against 1000.00, tolerance %s → %s', (amount, tolerance, outcome) => {
		expect(reconcile([row('A', 1000)], [paid('A', amount)], tolerance === '0.00' ? 0n : kobo(tolerance)).rows[0].outcome).toBe(outcome);
	});

	test('within the tolerance, the note says by how much', () => {
		expect(reconcile([row('A', 1000)], [paid('A', '999.50')], 50n).rows[0].note).toBe('paid in full (NGN 0.50 short, within the tolerance)');
	});

	test('parts within the tolerance are paid in parts; two payments each within it are paid twice', () => {
		expect(reconcile([row('A', 1000)], [paid('A', 499), paid('A', '500.50')], 100n).rows[0].outcome).toBe('paid in parts');
		expect(reconcile([row('A', 1000)], [paid('A', '999.50'), paid('A', '1000.20')], 100n).rows[0].outcome).toBe('paid twice');
	});
});

describe('generated days: every successful collection is counted exactly once', () => {
	/** A small seeded PRNG, so a failure names a day that can be run again. */
	const prng = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

	test.each(Array.from({ length: 40 }, (_, i) => i + 1))('seed %i', (seed) => {
		const random = prng(seed);
		const pick = (n: number) => Math.floor(random() * n);
		const keys = Array.from({ length: 1 + pick(30) }, (_, i) => `K${i}`);
		const amounts = ['100.00', '250.50', '0.10', '1,000.00', '99999999999999.99'];
		const expected = Array.from({ length: pick(60) }, () => row(keys[pick(keys.length)], amounts[pick(amounts.length)]));
		const collections = Array.from({ length: pick(80) }, () =>
			paid(keys[pick(keys.length)] + (random() < 0.1 ? 'X' : ''), amounts[pick(amounts.length)], ['success', 'success', 'success', 'pending', 'failed'][pick(5)]),
		);
		const tolerance = BigInt(pick(3) * 50);
		const result = reconcile(expected, collections, tolerance);

		expect(result.rows).toHaveLength(expected.length);
		const successes = collections.filter((c) => c.status === 'success');
		const counted = [...result.rows.filter((r) => r.paid > 0n).flatMap((r) => r.collections), ...result.unexpected];
		expect(counted.length).toBe(successes.length);
		expect(new Set(counted).size).toBe(successes.length);
		const total = (list: Array<{ kobo: bigint }>) => list.reduce((sum, c) => sum + c.kobo, 0n);
		expect(result.rows.reduce((sum, r) => sum + r.paid, 0n) + total(result.unexpected)).toBe(total(successes));
		for (const [index, r] of result.rows.entries()) {
			expect(r.difference).toBe(r.paid - r.expected);
			expect(r.expected).toBe(expected[index].kobo);
			expect(r.collections.every((c) => c.key === expected[index].key)).toBe(true);
			if (r.paid === 0n) expect(['not paid yet', 'pending', 'failed']).toContain(r.outcome);
			else expect(r.collections.every((c) => c.status === 'success')).toBe(true);
		}
		// A pending or failed collection explains one row at most.
		const explanations = result.rows.filter((r) => r.paid === 0n).flatMap((r) => r.collections);
		expect(new Set(explanations).size).toBe(explanations.length);
		// Unexpected money is money of keys no row has.
		const rowKeys = new Set(expected.map((e) => e.key));
		expect(result.unexpected.every((c) => !rowKeys.has(c.key))).toBe(true);
	});

	test('10,000 rows against 10,000 collections on one key stays fast (quadratic would take minutes)', () => {
		const expected = Array.from({ length: 10_000 }, (_, i) => row('POOL', 100 + (i % 7)));
		const collections = Array.from({ length: 10_000 }, (_, i) => paid('POOL', 100 + (i % 11)));
		const started = Date.now();
		const result = reconcile(expected, collections, 0n);
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(result.rows).toHaveLength(10_000);
	});
});

describe('a row as it comes out', () => {
	test('its own columns first, untouched and in their order, then the outcome; a column of the same name takes the outcome in its place', () => {
		const columns = JSON.parse('{"customer":"Ada","reconciliation_outcome":"from last month","amount":"10"}') as IDataObject;
		const json = withFields(columns, { reconciliation_outcome: 'matched', reconciliation_note: 'paid in full' });
		expect(Object.entries(json)).toEqual([
			['customer', 'Ada'],
			['reconciliation_outcome', 'matched'],
			['amount', '10'],
			['reconciliation_note', 'paid in full'],
		]);
		expect(columns.reconciliation_outcome).toBe('from last month');
	});

	test('a column named __proto__ stays a column (it does not become the prototype)', () => {
		const columns = JSON.parse('{"__proto__":{"polluted":true},"customer":"Ada"}') as IDataObject;
		const json = withFields(columns, { reconciliation_outcome: 'matched' });
		expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		expect(Object.keys(json)).toEqual(['__proto__', 'customer', 'reconciliation_outcome']);
		expect((json as { polluted?: boolean }).polluted).toBeUndefined();
	});
});
