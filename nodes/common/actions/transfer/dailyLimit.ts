import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { koboToAmount } from '../../amounts';
import { asNodeError, responseCodeOf } from '../../transport/outcome';
import { bankRequest } from '../../transport/request';
import { nextPageSize } from '../../transport/paging';
import { refusedError, whyNoAnswer } from '../writeOutcome';
import type { DayLedger, DebitRecord, Read } from './dailyLedger';
import { koboOf, newLedger, spentKobo, startRead, takePage } from './dailyLedger';
import type { TransferBody } from './exactlyOnce';

/**
 * Daily Limit per Source Account, the I/O around dailyLedger.ts: the bank's list of the source account's debits of
 * the day (fetch_transactions with the documented filters account_number, start_date, end_date, transaction_type) is
 * the only ledger every n8n process shares, so it is what counts; what this process has in flight is added, and the
 * check and the reservation run one at a time per account, so two calls racing in one process cannot both pass.
 * Two processes (queue-mode workers) racing between one's read and the other's debit showing in the list can each
 * pass once: docs/safety.md says so and what bounds it.
 */

/**
 * Pages of a full read: one request per 10,000 debits, so a busy day costs two. A bank that refuses so large a page
 * (invalid input, 99) is read again in pages of `fallback`. A top-up reads the newest page only, usually one request.
 */
export const DAILY_LIMIT_PAGES = { full: 10_000, fallback: 100, topUp: 100, most: 1000 };

const ledgers = new Map<string, DayLedger>();
const turns = new Map<string, Promise<void>>();
// Accounts a process pays from in one day are few; beyond this, the oldest ledgers with nothing in flight go.
const MAX_LEDGERS = 1000;

/** The bank's day of a moment, as its date filters take it (UTC, YYYY-MM-DD). */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function ledgerFor(key: string, day: string): DayLedger {
	for (const old of ledgers.keys()) if (!old.endsWith(`|${day}`)) ledgers.delete(old);
	let ledger = ledgers.get(key);
	if (!ledger) {
		if (ledgers.size >= MAX_LEDGERS) {
			for (const [old, held] of ledgers) if (held.inFlight.size === 0 && ledgers.size >= MAX_LEDGERS) ledgers.delete(old);
		}
		ledger = newLedger();
		ledgers.set(key, ledger);
	}
	return ledger;
}

/** Runs `task` after every earlier task of `key` ended: one check-and-reserve at a time per account and day. */
async function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
	const previous = turns.get(key) ?? Promise.resolve();
	let done!: () => void;
	const mine = new Promise<void>((resolve) => (done = resolve));
	turns.set(key, mine);
	try {
		await previous;
		return await task();
	} finally {
		done();
		if (turns.get(key) === mine) turns.delete(key);
	}
}

/** Brings `ledger` up to date with the bank's list; returns how many list requests it took. */
async function readLedger(context: IExecuteFunctions, itemIndex: number, ledger: DayLedger, account: string, day: string): Promise<number> {
	const first = startRead(ledger, Date.now());
	if (first.kind === 'topUp') return await readPages(context, itemIndex, ledger, account, day, DAILY_LIMIT_PAGES.topUp);
	try {
		return await readPages(context, itemIndex, ledger, account, day, DAILY_LIMIT_PAGES.full);
	} catch (error) {
		if (responseCodeOf(error) !== '99') throw asNodeError(context.getNode(), error, itemIndex);
		return 1 + (await readPages(context, itemIndex, ledger, account, day, DAILY_LIMIT_PAGES.fallback));
	}
}

async function readPages(context: IExecuteFunctions, itemIndex: number, ledger: DayLedger, account: string, day: string, pageSize: number): Promise<number> {
	const read: Read = startRead(ledger, Date.now());
	let previousFirst: string | undefined;
	let asked = pageSize;
	for (let requests = 1; requests <= DAILY_LIMIT_PAGES.most; requests++) {
		const body: IDataObject = {
			filters: { account_number: account, start_date: day, end_date: day, transaction_type: 'debit' },
			page: read.page,
			page_size: asked,
		};
		const data = await bankRequest<unknown>(context, 'fetchTransactions', body, { itemIndex, variant: 'api' });
		const records = Array.isArray(data) ? (data as DebitRecord[]) : [];
		const first = records.length > 0 ? JSON.stringify(records[0]) : undefined;
		// A bank that answers every page with the same records would never end the read.
		if (first !== undefined && first === previousFirst) throw new Error(`page ${read.page} of the list repeats the page before it`);
		previousFirst = first;
		if (takePage(ledger, read, records, Date.now()) === 'done') return requests;
		// A capped page: the next pages at the size served, so a bank numbering pages by the size asked skips no debit.
		asked = nextPageSize(asked, records.length);
	}
	throw new Error(`the list did not end within ${DAILY_LIMIT_PAGES.most} pages`);
}

/** What a check left behind: release it when the bank refused the send (nothing moved). */
export interface SpendReservation {
	release(): void;
	/** List requests the check made (for the docs' figures and the tests). */
	listRequests: number;
}

/**
 * Refuses, before anything is sent, a transfer that would take the source account's debits of the day (as the bank
 * lists them, plus this process's sends in flight) above `limit`; otherwise counts it in flight and returns the
 * reservation. A list that cannot be read refuses too: a limit that cannot be checked is not applied blindly.
 */
export async function reserveWithinDailyLimit(
	context: IExecuteFunctions,
	itemIndex: number,
	body: TransferBody,
	limit: string,
	baseUrl: string,
): Promise<SpendReservation> {
	const account = body.source_account_number;
	const day = dayOf(Date.now());
	const key = `${baseUrl.toLowerCase()}|${account}|${day}`;
	const notSent = `Transfer ${body.reference_number} was not sent`;
	return await inTurn(key, async () => {
		const ledger = ledgerFor(key, day);
		let listRequests: number;
		try {
			listRequests = await readLedger(context, itemIndex, ledger, account, day);
		} catch (error) {
			throw refusedError(
				context.getNode(),
				itemIndex,
				`${notSent}: the bank's list of today's debits of account ${account} could not be read (${whyNoAnswer(error)}), so this node's Daily Limit per Source Account (NGN ${limit}) could not be checked. Nothing was sent to the bank.`,
				'Run it again once the bank answers; keep the same reference.',
			);
		}
		const reference = body.reference_number;
		// A reference already listed or in flight moves no new money when sent again (the bank pays a reference once).
		const earlier = ledger.listed.get(reference) ?? ledger.inFlight.get(reference) ?? 0n;
		const { listed, inFlight } = spentKobo(ledger);
		const spent = listed + inFlight - earlier;
		const after = spent + koboOf(body.amount);
		const limitKobo = koboOf(limit);
		if (after > limitKobo) {
			const left = limitKobo > spent ? limitKobo - spent : 0n;
			const inFlightText = inFlight > 0n ? ` and NGN ${koboToAmount(inFlight)} this n8n is still sending` : '';
			throw refusedError(
				context.getNode(),
				itemIndex,
				`${notSent}: account ${account} has sent NGN ${koboToAmount(spent)} today (${day}, UTC: NGN ${koboToAmount(listed)} listed by the bank${inFlightText}); NGN ${body.amount} more would pass this node's Daily Limit per Source Account of NGN ${limit} (NGN ${koboToAmount(left)} left today). Nothing was sent to the bank.`,
				'Do not split the payment to pass the limit: pay the rest tomorrow, or ask the person who set the limit on this node.',
			);
		}
		ledger.inFlight.set(reference, koboOf(body.amount));
		return {
			listRequests,
			release: () => {
				ledger.inFlight.delete(reference);
			},
		};
	});
}

/** Forgets every account's ledger (tests start cold with it, as a new n8n process does). */
export function forgetDailyLedgers(): void {
	ledgers.clear();
}
