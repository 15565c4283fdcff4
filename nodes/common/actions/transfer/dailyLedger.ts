/**
 * The pure core of Daily Limit per Source Account: what one n8n process knows of one source account's debits on
 * one day, as the bank lists them (newest first, docs/api-assumptions.md), and what it has in flight itself. No
 * I/O here: the reader (dailyLimit.ts) feeds pages in and asks what to read next; tests fuzz this directly.
 *
 * Rules (each has a test in test/unit/daily-ledger.test.ts):
 * 1. Counted: a debit the bank lists as success or pending (money gone or going); a failed one counts nothing.
 * 2. Once per reference: a reference seen again (on a later page, in a later read) replaces its earlier amount and
 *    status, never adds to them.
 * 3. A full read ends only on an empty page, or a page shorter than the first page of that read (a bank that caps
 *    pages serves every page but the last at the cap): a short first page alone is not taken for the end.
 * 4. A top-up read (a ledger read in full before) stops at the first page that shows a reference already known: the
 *    list is newest first, so what lies below was counted before. A page of only new references reads on.
 * 5. In flight: a send this process started counts until the bank lists its reference (then the bank's figure
 *    counts, once); a send refused by the bank is released; an unknown outcome stays counted (fail closed).
 * 6. A ledger older than FRESH_MS is read in full again (statuses change: a pending debit that failed stops counting).
 */

/** Whole kobo: amounts never pass through a float. */
export type Kobo = bigint;

export function koboOf(amount: string): Kobo {
	const [units, cents = ''] = amount.trim().split('.');
	return BigInt(units || '0') * 100n + BigInt((cents + '00').slice(0, 2));
}


/** A full read older than this is done again, so that status changes (pending → failed) are seen. */
export const FRESH_MS = 10 * 60_000;

export interface DebitRecord {
	reference_number?: unknown;
	amount?: unknown;
	status?: unknown;
	transaction_type?: unknown;
}

export interface DayLedger {
	/** Counted kobo per reference the bank listed (0 for a failed debit). */
	listed: Map<string, Kobo>;
	/** Kobo per reference this process sent (or is sending) that the bank did not list yet. */
	inFlight: Map<string, Kobo>;
	/** When the last full read ended (ms); undefined: never read in full. */
	fullReadAtMs?: number;
}

export const newLedger = (): DayLedger => ({ listed: new Map(), inFlight: new Map() });

/** What the bank lists plus what is in flight and not listed yet. */
export function spentKobo(ledger: DayLedger): { listed: Kobo; inFlight: Kobo } {
	let listed = 0n;
	for (const kobo of ledger.listed.values()) listed += kobo;
	let inFlight = 0n;
	for (const [reference, kobo] of ledger.inFlight) if (!ledger.listed.has(reference)) inFlight += kobo;
	return { listed, inFlight };
}

const COUNTED_STATUSES = new Set(['success', 'successful', 'pending']);

/** The kobo a listed debit counts, or undefined when the record is not a usable debit (no reference or amount). */
function countedKobo(record: DebitRecord): { reference: string; kobo: Kobo } | undefined {
	if (record.transaction_type !== undefined && record.transaction_type !== 'debit') return undefined;
	const reference = typeof record.reference_number === 'string' ? record.reference_number : undefined;
	const amount = typeof record.amount === 'string' ? record.amount.replace(/,/g, '') : undefined;
	if (!reference || !amount || !/^\d+(\.\d+)?$/.test(amount)) return undefined;
	const status = String(record.status ?? 'pending').toLowerCase();
	return { reference, kobo: COUNTED_STATUSES.has(status) ? koboOf(amount) : 0n };
}

/** One read in progress: a full read of every page, or a top-up from the top until known references show. */
export interface Read {
	kind: 'full' | 'topUp';
	/** The next page to ask (1-based). */
	page: number;
	/** How many records the read's first page held: a later page shorter than that is the list's end (rule 3). */
	firstPageSize?: number;
	/** References listed during a full read: they replace the ledger's when the read ends. */
	seen: Map<string, Kobo>;
}

export const startRead = (ledger: DayLedger, nowMs: number): Read => ({
	kind: ledger.fullReadAtMs === undefined || nowMs - ledger.fullReadAtMs >= FRESH_MS ? 'full' : 'topUp',
	page: 1,
	seen: new Map(),
});

/**
 * Takes one page of the read. Returns 'more' when the next page must be read (read.page already points at it),
 * 'done' when the ledger is up to date. A usable record without a reference or amount is skipped (it cannot be
 * told from another); a malformed record is not counted, as the bank's own ledger is the only one that counts.
 */
export function takePage(ledger: DayLedger, read: Read, records: DebitRecord[], nowMs: number): 'more' | 'done' {
	let sawKnown = false;
	for (const record of records) {
		const counted = countedKobo(record);
		if (!counted) continue;
		if (ledger.listed.has(counted.reference) && !read.seen.has(counted.reference)) sawKnown = true;
		read.seen.set(counted.reference, counted.kobo);
		if (read.kind === 'topUp') ledger.listed.set(counted.reference, counted.kobo);
	}
	const first = read.firstPageSize;
	if (first === undefined) read.firstPageSize = records.length;
	const ended = records.length === 0 || (first !== undefined && records.length < first);
	read.page++;
	if (read.kind === 'topUp') return ended || sawKnown ? 'done' : 'more';
	if (!ended) return 'more';
	ledger.listed = read.seen;
	ledger.fullReadAtMs = nowMs;
	// What the bank now lists is counted from its list; what it does not list yet stays in flight.
	for (const reference of ledger.inFlight.keys()) if (ledger.listed.has(reference)) ledger.inFlight.delete(reference);
	return 'done';
}
