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
 * Cost: one Map of keys (each row and collection looked up once), and a sort by time only when the collections
 * are not already oldest first (the bank's order reversed is): O(n) for n rows and collections, O(n log n) at most.
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

/** Text that is already its own key (no space, no small letter): most account numbers and references, read as they are. */
const PLAIN_KEY = /^[0-9A-Z._/-]*$/;

/** The key both sides are compared on: without spaces, case ignored ("inv-17 " and "INV-17" are one key). */
export function matchKey(value: unknown): string {
	if (value === undefined || value === null) return '';
	const text = String(value);
	return PLAIN_KEY.test(text) ? text : text.replace(/\s+/g, '').toUpperCase();
}

/** Lists by key, each read from the front once: taking skips what is no longer free, in O(1) amortised. */
class Queues<K, V> {
	private readonly lists = new Map<K, { items: V[]; next: number }>();

	add(key: K, value: V): void {
		const list = this.lists.get(key);
		if (list) list.items.push(value);
		else this.lists.set(key, { items: [value], next: 0 });
	}

	/** The first value of `key`'s list for which `free` holds (and every value before it is dropped). */
	take(key: K, free: (value: V) => boolean): V | undefined {
		const list = this.lists.get(key);
		while (list && list.next < list.items.length) {
			const value = list.items[list.next++];
			if (free(value)) return value;
		}
		return undefined;
	}
}

/** Pending and failed collections of one key, by status and amount, and by status alone (any amount). */
type Waiting<R> = Queues<string, Collection<R>>;

/** What one key gathers: its rows (indices into the expected payments) and its collections, oldest first. */
interface KeyGroup<R> {
	rows: number[];
	successes: Array<Collection<R>>;
	/** Only for the few keys with a pending or failed collection. */
	waiting?: Waiting<R>;
}

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
	// One pass: the sum, and whether every collection is (within the tolerance) the expected amount.
	let paid = 0n;
	let eachExpected = taken.length > 1;
	for (let i = 0; i < taken.length; i++) {
		const collection = taken[i];
		paid += collection.kobo;
		if (eachExpected && abs(collection.kobo - expected) > tolerance) eachExpected = false;
	}
	const difference = paid - expected;
	let outcome: RowResult['outcome'];
	if (eachExpected) outcome = 'paid twice';
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

/** Rows (indices into `expected`, two or more) of one key against that key's successful collections, oldest first. */
function allocate<R>(rows: number[], expected: ExpectedPayment[], successes: Array<Collection<R>>, tolerance: bigint): Map<number, Array<Collection<R>>> {
	const taken = new Map<number, Array<Collection<R>>>(rows.map((row) => [row, []]));
	const used = new Set<Collection<R>>();
	const byAmount = new Queues<bigint, Collection<R>>();
	for (const collection of successes) byAmount.add(collection.kobo, collection);
	const free = (c: Collection<R>) => !used.has(c);
	// 1. exact amounts first
	for (const row of rows) {
		const exact = byAmount.take(expected[row].kobo, free);
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
	const firstByAmount = new Map<bigint, number>();
	for (const row of rows) if (!firstByAmount.has(expected[row].kobo)) firstByAmount.set(expected[row].kobo, row);
	for (const collection of successes) {
		if (used.has(collection)) continue;
		const row = firstByAmount.get(collection.kobo) ?? rows[rows.length - 1];
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

/** The pending or failed collection left for an unpaid row of `expected` kobo, if any (then no longer left). */
function explain<R>(waiting: Waiting<R>, expected: bigint, explained: Set<Collection<R>>, free: (c: Collection<R>) => boolean): Collection<R> | undefined {
	// The row's own amount first; then pending before failed (money on its way says more than money that did not come).
	const amount = expected.toString();
	for (const [status, exact] of EXPLAIN_ORDER) {
		const explanation = waiting.take(`${status}\u0000${exact ? amount : ''}`, free);
		if (explanation) {
			explained.add(explanation);
			return explanation;
		}
	}
	return undefined;
}

const byTime = (a: Collection<unknown>, b: Collection<unknown>) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

/** The collections oldest first; stable (one instant keeps the order given). The bank's order reversed is already so: no copy, no sort. */
function inTimeOrder<R>(collections: Array<Collection<R>>): Array<Collection<R>> {
	for (let i = 1; i < collections.length; i++) {
		if (collections[i - 1].createdAt > collections[i].createdAt) return [...collections].sort(byTime);
	}
	return collections;
}

/**
 * One result per expected payment, in input order, and the successful collections no row expected, oldest
 * first. `tolerance` is in kobo (0n: exact).
 */
export function reconcile<R>(expected: ExpectedPayment[], collections: Array<Collection<R>>, tolerance: bigint): Reconciliation<R> {
	// One Map lookup per row and per collection: each key's rows and collections gathered in one place.
	const groups = new Map<string, KeyGroup<R>>();
	for (let index = 0; index < expected.length; index++) {
		const group = groups.get(expected[index].key);
		if (group) group.rows.push(index);
		else groups.set(expected[index].key, { rows: [index], successes: [] });
	}
	const unexpected: Array<Collection<R>> = [];
	const ordered = inTimeOrder(collections);
	for (let i = 0; i < ordered.length; i++) {
		const collection = ordered[i];
		if (collection.status === 'success') {
			const group = collection.key === '' ? undefined : groups.get(collection.key);
			if (group) group.successes.push(collection);
			else unexpected.push(collection);
		} else if (collection.status === 'pending' || collection.status === 'failed') {
			const group = groups.get(collection.key);
			if (!group) continue;
			const waiting = (group.waiting ??= new Queues());
			waiting.add(`${collection.status}\u0000${collection.kobo}`, collection);
			waiting.add(`${collection.status}\u0000`, collection);
		}
	}
	const explained = new Set<Collection<R>>();
	const free = (c: Collection<R>) => !explained.has(c);
	const results: Array<RowResult<R>> = new Array(expected.length);
	for (const group of groups.values()) {
		const rows = group.rows;
		// One row (the usual case: one virtual account or reference per invoice): the three passes give it every collection.
		const taken = rows.length === 1 ? undefined : allocate(rows, expected, group.successes, tolerance);
		for (let i = 0; i < rows.length; i++) {
			const row = rows[i];
			const mine = taken ? taken.get(row)! : group.successes;
			if (mine.length > 0) results[row] = classify(expected[row].kobo, mine, tolerance);
			else results[row] = unpaid(expected[row].kobo, group.waiting && explain(group.waiting, expected[row].kobo, explained, free));
		}
	}
	return { rows: results, unexpected };
}
