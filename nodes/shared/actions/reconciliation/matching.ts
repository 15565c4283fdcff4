/**
 * Matching expected payments against the bank's collections: state in, decision out, no I/O. The rules where
 * issue 35 is silent (docs/nodes/baas.md, "Reconciliation → Match Expected Payments", states them for users):
 *
 * - Rows and collections meet by key (a virtual account or a reference). Rows that share a key (two invoices on
 *   one virtual account, two invoices with one reference) share that key's collections, each collection used
 *   once, in three passes:
 *   1. exact: each row, in input order, takes the earliest collection of exactly its amount;
 *   2. in order: each row still without money takes the earliest remaining collections until it is paid
 *      (within the tolerance), so two collections summing to an invoice pay it;
 *   3. leftovers (every row of the key is paid by then): a collection goes to the first row expecting exactly
 *      its amount (that row was paid twice), else to the key's last row (it was overpaid).
 * - A row's outcome, from the successful collections it took (paid = their sum; tolerance T: |paid − expected| <= T):
 *   none → `pending` or `failed` when a collection of its key in that state is left for it (exact amount first),
 *   else `not paid yet`; two or more, each equal to the expected amount → `paid twice`; paid within T → `matched`
 *   (one collection) or `paid in parts` (several); below → `underpaid`; above → `overpaid`.
 * - A successful collection whose key no row has is `unexpected`. Pending and failed collections carry no money:
 *   they only explain a row that received none, and are otherwise left out.
 * Cost: grouping by key in Maps plus one sort of the collections by time, O(n log n) for n rows and collections.
 */
import { koboForPeople } from '../../amounts';

export const PAYMENT_OUTCOMES = ['matched', 'underpaid', 'overpaid', 'paid in parts', 'paid twice', 'not paid yet', 'pending', 'failed', 'unexpected'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** One expected payment: its matching key (normalised by matchKey) and amount in kobo; its place is its index. */
export interface ExpectedPayment {
	key: string;
	kobo: bigint;
}

/** One collection from the bank, with the record it came from (handed back untouched). */
export interface Collection<R = unknown> {
	key: string;
	reference: string;
	kobo: bigint;
	/** The bank's status: only 'success' is money received. */
	status: string;
	/** The bank's created_at (ISO 8601): collections are used oldest first. */
	createdAt: string;
	record: R;
}

export interface RowResult<R = unknown> {
	outcome: Exclude<PaymentOutcome, 'unexpected'>;
	expected: bigint;
	paid: bigint;
	/** paid − expected. */
	difference: bigint;
	/** The successful collections counted for the row, oldest first; for pending/failed the one that explains it. */
	collections: Array<Collection<R>>;
	note: string;
}

export interface Reconciliation<R = unknown> {
	rows: Array<RowResult<R>>;
	unexpected: Array<Collection<R>>;
}

/** The key both sides are compared on: without spaces, case ignored ("inv-17 " and "INV-17" are one key). */
export function matchKey(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).replace(/\s+/g, '').toUpperCase();
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/** Lists by key, each read from the front once: taking skips what is no longer free, in O(1) amortised. */
class Queues<V> {
	private readonly lists = new Map<string, { items: V[]; next: number }>();

	add(key: string, value: V): void {
		const list = this.lists.get(key);
		if (list) list.items.push(value);
		else this.lists.set(key, { items: [value], next: 0 });
	}

	/** The first value of `key`'s list for which `free` holds (and every value before it is dropped). */
	take(key: string, free: (value: V) => boolean): V | undefined {
		const list = this.lists.get(key);
		while (list && list.next < list.items.length) {
			const value = list.items[list.next++];
			if (free(value)) return value;
		}
		return undefined;
	}
}

const sum = (collections: Array<Collection<unknown>>) => collections.reduce((total, c) => total + c.kobo, 0n);
const abs = (value: bigint) => (value < 0n ? -value : value);
const parts = (count: number) => (count > 1 ? ` in ${count} payments` : '');

function noteFor(outcome: RowResult['outcome'], difference: bigint, collections: Array<Collection<unknown>>): string {
	const count = collections.length;
	const within = difference === 0n ? '' : ` (${koboForPeople(difference)} ${difference < 0n ? 'short' : 'more'}, within the tolerance)`;
	switch (outcome) {
		case 'matched':
			return `paid in full${within}`;
		case 'paid in parts':
			return `paid in full in ${count} payments${within}`;
		case 'paid twice':
			return `paid ${count} times: ${koboForPeople(difference)} more than expected`;
		case 'underpaid':
			return `short by ${koboForPeople(difference)}${parts(count)}`;
		case 'overpaid':
			return `${koboForPeople(difference)} more than expected${parts(count)}`;
		case 'pending':
			return `a payment of ${koboForPeople(collections[0].kobo)} is pending at the bank; nothing received yet`;
		case 'failed':
			return `a payment of ${koboForPeople(collections[0].kobo)} failed at the bank; nothing received`;
		default:
			return 'no payment received in the period';
	}
}

function classify<R>(expected: bigint, taken: Array<Collection<R>>, tolerance: bigint): RowResult<R> {
	const paid = sum(taken);
	const difference = paid - expected;
	let outcome: RowResult['outcome'];
	if (taken.length > 1 && taken.every((c) => abs(c.kobo - expected) <= tolerance)) outcome = 'paid twice';
	else if (abs(difference) <= tolerance) outcome = taken.length === 1 ? 'matched' : 'paid in parts';
	else outcome = difference < 0n ? 'underpaid' : 'overpaid';
	return { outcome, expected, paid, difference, collections: taken, note: noteFor(outcome, difference, taken) };
}

/** The outcome of a row that received no money: a pending or failed collection left for its key explains it. */
function unpaid<R>(expected: bigint, explained: Collection<R> | undefined): RowResult<R> {
	const outcome = explained ? (explained.status === 'pending' ? 'pending' : 'failed') : 'not paid yet';
	const collections = explained ? [explained] : [];
	return { outcome, expected, paid: 0n, difference: -expected, collections, note: noteFor(outcome, -expected, collections) };
}

/** Rows (indices into `expected`) of one key against that key's successful collections, oldest first. */
function allocate<R>(rows: number[], expected: ExpectedPayment[], successes: Array<Collection<R>>, tolerance: bigint): Map<number, Array<Collection<R>>> {
	// One row (the usual case: one virtual account or reference per invoice): the three passes give it every collection.
	if (rows.length === 1) return new Map([[rows[0], successes]]);
	const taken = new Map<number, Array<Collection<R>>>(rows.map((row) => [row, []]));
	const used = new Set<Collection<R>>();
	const byAmount = new Queues<Collection<R>>();
	for (const collection of successes) byAmount.add(collection.kobo.toString(), collection);
	const free = (c: Collection<R>) => !used.has(c);
	// 1. exact amounts first
	for (const row of rows) {
		const exact = byAmount.take(expected[row].kobo.toString(), free);
		if (exact) {
			used.add(exact);
			taken.get(row)!.push(exact);
		}
	}
	// 2. in order, until each row is paid
	let next = 0;
	for (const row of rows) {
		const mine = taken.get(row)!;
		if (mine.length > 0) continue;
		let paid = 0n;
		while (paid < expected[row].kobo - tolerance && next < successes.length) {
			const collection = successes[next++];
			if (used.has(collection)) continue;
			used.add(collection);
			mine.push(collection);
			paid += collection.kobo;
		}
	}
	// 3. leftovers: to the first row expecting exactly that amount, else to the key's last row
	const firstByAmount = new Map<string, number>();
	for (const row of rows) if (!firstByAmount.has(expected[row].kobo.toString())) firstByAmount.set(expected[row].kobo.toString(), row);
	for (const collection of successes) {
		if (used.has(collection)) continue;
		const row = firstByAmount.get(collection.kobo.toString()) ?? rows[rows.length - 1];
		taken.get(row)!.push(collection);
	}
	for (const list of taken.values()) list.sort(byTime);
	return taken;
}

/** Which pending or failed collection explains an unpaid row, in order of preference: [status, same amount]. */
const EXPLAIN_ORDER: Array<[string, boolean]> = [
	['pending', true],
	['failed', true],
	['pending', false],
	['failed', false],
];

const byTime = (a: Collection<unknown>, b: Collection<unknown>) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

/**
 * One result per expected payment, in input order, and the successful collections no row expected, oldest
 * first. `tolerance` is in kobo (0n: exact).
 */
export function reconcile<R>(expected: ExpectedPayment[], collections: Array<Collection<R>>, tolerance: bigint): Reconciliation<R> {
	const rowsByKey = new Map<string, number[]>();
	expected.forEach((row, index) => pushTo(rowsByKey, row.key, index));
	const successesByKey = new Map<string, Array<Collection<R>>>();
	// Pending and failed collections by key and status, each by amount and under '' (any amount).
	const others = new Queues<Collection<R>>();
	const unexpected: Array<Collection<R>> = [];
	// Stable: collections of one instant keep the order given.
	for (const collection of [...collections].sort(byTime)) {
		if (collection.status === 'success') {
			if (collection.key !== '' && rowsByKey.has(collection.key)) pushTo(successesByKey, collection.key, collection);
			else unexpected.push(collection);
		} else if (rowsByKey.has(collection.key) && (collection.status === 'pending' || collection.status === 'failed')) {
			others.add(`${collection.key}\u0000${collection.status}\u0000${collection.kobo}`, collection);
			others.add(`${collection.key}\u0000${collection.status}\u0000`, collection);
		}
	}
	const explained = new Set<Collection<R>>();
	const free = (c: Collection<R>) => !explained.has(c);
	const results: Array<RowResult<R>> = new Array(expected.length);
	for (const [key, rows] of rowsByKey) {
		const taken = allocate(rows, expected, successesByKey.get(key) ?? [], tolerance);
		for (const row of rows) {
			const mine = taken.get(row)!;
			if (mine.length > 0) {
				results[row] = classify(expected[row].kobo, mine, tolerance);
				continue;
			}
			// The row's own amount first; then pending before failed (money on its way says more than money that did not come).
			const amount = expected[row].kobo.toString();
			let explanation: Collection<R> | undefined;
			for (const [status, exact] of EXPLAIN_ORDER) {
				explanation ??= others.take(`${key}\u0000${status}\u0000${exact ? amount : ''}`, free);
			}
			if (explanation) explained.add(explanation);
			results[row] = unpaid(expected[row].kobo, explanation);
		}
	}
	return { rows: results, unexpected };
}
