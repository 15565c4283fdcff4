/**
 * The pure core of Daily Limit per Source Account (nodes/common/actions/transfer/dailyLedger.ts): each rule named in
 * its header has a test here, and a generated-history check holds the ledger against the bank's own sum.
 */
import { koboToAmount } from '../../nodes/common/amounts';
import type { DayLedger, DebitRecord } from '../../nodes/common/actions/transfer/dailyLedger';
import { FRESH_MS, koboOf, newLedger, spentKobo, startRead, takePage } from '../../nodes/common/actions/transfer/dailyLedger';
import { prng } from '../support/prng';

const debit = (reference: string, amount: string, status = 'success'): DebitRecord => ({ reference_number: reference, amount, status, transaction_type: 'debit' });

/** A bank list, newest first, served in pages of `size` capped at `cap`: page N starts at (N-1) × served size. */
function pageOf(list: DebitRecord[], page: number, size: number, cap = Infinity): DebitRecord[] {
	const served = Math.min(size, cap);
	return list.slice((page - 1) * served, page * served);
}

/** Reads the list into the ledger as the node does; returns the number of requests. */
function read(ledger: DayLedger, list: DebitRecord[], nowMs: number, cap = Infinity): number {
	const reading = startRead(ledger, nowMs);
	const size = reading.kind === 'full' ? 1000 : 100;
	for (let requests = 1; requests < 10_000; requests++) {
		if (takePage(ledger, reading, pageOf(list, reading.page, size, cap), nowMs) === 'done') return requests;
	}
	throw new Error('the read never ended');
}

const listed = (ledger: DayLedger) => koboToAmount(spentKobo(ledger).listed);

test('amounts are whole kobo, never floats', () => {
	expect(koboOf('0.10')).toBe(10n);
	expect(koboOf('0.1')).toBe(10n);
	expect(koboOf('90071992547409.93')).toBe(9007199254740993n);
	expect(koboToAmount(9007199254740993n)).toBe('90071992547409.93');
});

test('rule 1: success and pending debits count, failed ones and credits do not', () => {
	const ledger = newLedger();
	read(ledger, [debit('A', '10.00'), debit('B', '5.50', 'pending'), debit('C', '99.00', 'failed'), { reference_number: 'D', amount: '7.00', transaction_type: 'credit' }], 0);
	expect(listed(ledger)).toBe('15.50');
});

test('rule 2: a reference shown twice (pushed down a page by a new record) counts once', () => {
	const ledger = newLedger();
	const reading = startRead(ledger, 0);
	expect(takePage(ledger, reading, [debit('A', '10.00'), debit('B', '10.00')], 0)).toBe('more');
	expect(takePage(ledger, reading, [debit('B', '10.00'), debit('C', '10.00')], 0)).toBe('more');
	expect(takePage(ledger, reading, [], 0)).toBe('done');
	expect(listed(ledger)).toBe('30.00');
});

test('rule 3: a short first page is not taken for the end (a bank capping pages); a page shorter than the first is', () => {
	const list = Array.from({ length: 25 }, (_, n) => debit(`R${n}`, '1.00'));
	const ledger = newLedger();
	// The bank serves 10 where 1000 were asked: three pages of 10, 10 and 5, and all 25 counted.
	expect(read(ledger, list, 0, 10)).toBe(3);
	expect(listed(ledger)).toBe('25.00');
});

test('rule 4: a top-up reads from the top until it sees a reference it knew; a page of only new ones reads on', () => {
	const ledger = newLedger();
	const old = Array.from({ length: 500 }, (_, n) => debit(`OLD${n}`, '1.00'));
	read(ledger, old, 0);
	const fresh = Array.from({ length: 150 }, (_, n) => debit(`NEW${n}`, '2.00'));
	// 150 new records over pages of 100: two requests, the second showing the old ones.
	expect(read(ledger, [...fresh, ...old], 1000)).toBe(2);
	expect(listed(ledger)).toBe('800.00');
	expect(read(ledger, [debit('ONE', '3.00'), ...fresh, ...old], 2000)).toBe(1);
	expect(listed(ledger)).toBe('803.00');
});

test('rule 5: a send in flight counts until the bank lists it, then counts once', () => {
	const ledger = newLedger();
	read(ledger, [debit('A', '10.00')], 0);
	ledger.inFlight.set('MINE', koboOf('5.00'));
	expect(spentKobo(ledger)).toEqual({ listed: 1000n, inFlight: 500n });
	read(ledger, [debit('MINE', '5.00', 'pending'), debit('A', '10.00')], 1000);
	expect(spentKobo(ledger)).toEqual({ listed: 1500n, inFlight: 0n });
});

test('rule 6: a ledger read in full longer ago than FRESH_MS is read in full again, so a pending debit that failed stops counting', () => {
	const ledger = newLedger();
	const newer = Array.from({ length: 150 }, (_, n) => debit(`N${n}`, '1.00'));
	read(ledger, [...newer, debit('P', '40.00', 'pending')], 0);
	expect(listed(ledger)).toBe('190.00');
	const now = [...newer, debit('P', '40.00', 'failed')];
	// A top-up reads the top page only: P, further down, keeps counting (the safe side) ...
	expect(read(ledger, now, FRESH_MS - 1)).toBe(1);
	expect(listed(ledger)).toBe('190.00');
	// ... until the ledger is read in full again.
	expect(startRead(ledger, FRESH_MS).kind).toBe('full');
	read(ledger, now, FRESH_MS);
	expect(listed(ledger)).toBe('150.00');
});

const random = prng;

test('generated days: after every read the ledger holds exactly what the bank lists (new debits arriving on top, page caps from 1)', () => {
	let histories = 0;
	for (let seed = 1; seed <= 300; seed++) {
		const next = random(seed);
		const cap = next() < 0.3 ? 1 + Math.floor(next() * 120) : Infinity;
		const list: DebitRecord[] = [];
		const ledger = newLedger();
		let n = 0;
		for (let call = 0; call < 12; call++) {
			const arrivals = Math.floor(next() * (next() < 0.2 ? 400 : 20));
			for (let k = 0; k < arrivals; k++) {
				const kobo = BigInt(1 + Math.floor(next() * 1_000_000));
				list.unshift(debit(`S${seed}-${n++}`, koboToAmount(kobo), next() < 0.1 ? 'pending' : 'success'));
			}
			read(ledger, list, call * 1000, cap);
			const truth = list.reduce((sum, record) => sum + koboOf(String(record.amount)), 0n);
			expect([seed, call, spentKobo(ledger).listed]).toEqual([seed, call, truth]);
		}
		histories++;
	}
	expect(histories).toBe(300);
});
