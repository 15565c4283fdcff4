/**
 * A day plan: expected payments in, the bank's collections and settlements of that day made so that matching and
 * the settlement check have a known outcome for every row and every collection (sandbox/README.md, "Day plans").
 * The records keep the contract's fields; what made them is in the answer, never in the records.
 */
import { ApiError } from '../http/envelope';
import { formatAmount } from '../data/money';
import { dayBounds } from '../data/time';
import type { Bank } from './bank';
import { addSettlement, creditCollection } from './collections';
import { runtimeReference } from './ids';
import { standardDayPlan } from '../data/standardDayPlan';
import type { Account, Transaction } from './records';

export const PLAN_OUTCOMES = ['matched', 'underpaid', 'overpaid', 'paid in parts', 'paid twice', 'not paid yet', 'pending', 'failed'] as const;
export type PlanOutcome = (typeof PLAN_OUTCOMES)[number];
/** What happens to the settlement of a row's (first) collection. */
export const SETTLEMENT_FAULTS = ['on time', 'a day late', 'missing', 'another amount', 'twice'] as const;
export type SettlementFault = (typeof SETTLEMENT_FAULTS)[number];
export type SettlementOutcome = 'settled' | 'not settled yet' | 'settled with another amount' | 'settled twice' | 'settlement without a collection';

export interface PlanPayment {
	account_number: string;
	/** Makes the virtual account (under the pool) when the bank has no such account. */
	customer_name?: string;
	amount: bigint;
	outcome: PlanOutcome;
	/** underpaid / overpaid: what was paid (default 10 % less / 2 % more). */
	paid?: bigint;
	/** not paid yet: the payment went to this account instead (an unexpected collection there). */
	paid_to?: string;
	settlement?: SettlementFault;
}

export interface DayPlan {
	date: string;
	payments: PlanPayment[];
	/** Collections no row expects. */
	unexpected?: Array<{ account_number: string; amount: bigint }>;
	/** Settlements whose reference no collection has. */
	orphan_settlements?: Array<{ account_number: string; amount: bigint }>;
}

interface Made {
	reference: string;
	account_number: string;
	amount: string;
	status: Transaction['status'];
	created_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const DAY_MS = 86_400_000;
const MAX_RECORDS = 50;

/** Amounts paid and collection statuses that make each outcome (the first entry carries the settlement fault). */
function payments(p: PlanPayment): Array<{ amount: bigint; status: Transaction['status'] }> {
	const ok = (amount: bigint) => ({ amount, status: 'success' as const });
	switch (p.outcome) {
		case 'matched':
			return [ok(p.amount)];
		case 'underpaid':
			return [ok(p.paid ?? p.amount - p.amount / 10n)];
		case 'overpaid':
			return [ok(p.paid ?? p.amount + p.amount / 50n)];
		case 'paid in parts': {
			const first = (p.amount / 2n / 100n) * 100n + 100n;
			return [ok(first), ok(p.amount - first)];
		}
		case 'paid twice':
			return [ok(p.amount), ok(p.amount)];
		case 'not paid yet':
			return [];
		case 'pending':
			return [{ amount: p.amount, status: 'pending' }];
		case 'failed':
			// It was pending, then failed: the bank's record shows only where it ended.
			return [{ amount: p.amount, status: 'failed' }];
	}
}

function check(bank: Bank, plan: DayPlan, nowMs: number): void {
	const [start] = dayBounds(plan.date);
	if (start + DAY_MS > nowMs) throw new ApiError('99', `date: ${plan.date} has not ended yet; a day plan is for a past day`);
	const rowAccounts = new Set<string>();
	for (const [i, p] of plan.payments.entries()) {
		if ((bank.accounts.get(p.account_number)?.status ?? 'active') !== 'active') {
			throw new ApiError('99', `payments[${i}].account_number: ${p.account_number} is not active`);
		}
		if (rowAccounts.has(p.account_number)) throw new ApiError('99', `payments[${i}].account_number: ${p.account_number} is another row's too; one row per account`);
		rowAccounts.add(p.account_number);
		const account = bank.accounts.get(p.account_number);
		if (!account && !p.customer_name) throw new ApiError('99', `payments[${i}]: no account ${p.account_number}; give customer_name to make it`);
		if (account && account.businessId !== bank.main.id) throw new ApiError('99', `payments[${i}].account_number: ${p.account_number} is not the business's`);
		if ((p.outcome === 'paid in parts' && p.amount < 300n) || p.amount <= 0n) throw new ApiError('99', `payments[${i}].amount: too small for ${p.outcome}`);
		if (p.paid_to !== undefined && p.outcome !== 'not paid yet') throw new ApiError('99', `payments[${i}].paid_to: only for "not paid yet"`);
	}
	const [from, to] = dayBounds(plan.date);
	const others = bank.transactions.filter((t) => t.createdAtMs >= from && t.createdAtMs < to && t.type === 'credit' && rowAccounts.has(t.accountNumber));
	if (others.length > 0) throw new ApiError('99', `payments: ${others[0].accountNumber} has collections of its own on ${plan.date}; pick accounts without`);
	const strays = [...plan.payments.flatMap((p) => (p.paid_to ? [p.paid_to] : [])), ...(plan.unexpected ?? []).map((u) => u.account_number)];
	const clash = strays.find((a) => rowAccounts.has(a));
	if (clash) throw new ApiError('99', `${clash} is a row's account; money for no row goes to another account`);
	const orphanAccounts = (plan.orphan_settlements ?? []).map((o) => o.account_number).filter((a) => !rowAccounts.has(a));
	const unusable = [...strays, ...orphanAccounts].find((a) => bank.ownedAccount(bank.main.id, a)?.status !== 'active');
	if (unusable) throw new ApiError('99', `${unusable} is no active account of the business`);
	const records = plan.payments.reduce((n, p) => n + payments(p).length + (p.paid_to ? 1 : 0), 0) + (plan.unexpected ?? []).length;
	// 17 min 23 s apart from 08:00, settled 30 min later: all within the day.
	if (records > MAX_RECORDS) throw new ApiError('99', `payments: ${records} collections; a day plan makes at most ${MAX_RECORDS}`);
	// Checked here, so that a plan is applied whole or not at all.
}

function customerAccount(bank: Bank, p: PlanPayment): Account {
	const existing = bank.accounts.get(p.account_number);
	if (existing) return existing;
	const pool = bank.businessAccounts(bank.main.id).find((a) => a.accountType === 'pool');
	const account: Account = {
		id: bank.newId(),
		businessId: bank.main.id,
		accountNumber: p.account_number,
		accountName: p.customer_name as string,
		accountType: 'virtual',
		accountClass: 'secondary',
		status: 'active',
		balance: 0n,
		lastBalanceUpdateMs: bank.config.historyEndMs - 120 * DAY_MS,
		poolAccountNumber: pool?.accountNumber ?? null,
		createdAtMs: bank.config.historyEndMs - 120 * DAY_MS,
	};
	bank.accounts.set(account.accountNumber, account);
	return account;
}

/** The settlement outcome of every successful collection of the day (and each orphan settlement), as the bank now holds them. */
function settlementOutcomes(bank: Bank, date: string, settlementDays: number) {
	const [from, to] = dayBounds(date);
	const until = from + settlementDays * DAY_MS;
	const collected = bank.transactions.filter(
		(t) => t.businessId === bank.main.id && t.type === 'credit' && t.category === 'collection' && t.status === 'success' && t.createdAtMs >= from && t.createdAtMs < to,
	);
	const settlements = bank.settlements.filter((s) => s.businessId === bank.main.id && s.settlementDateMs >= from && s.settlementDateMs < until);
	const refs = new Set(bank.transactions.map((t) => t.reference));
	const outcomes = collected.map((t) => {
		const mine = settlements.filter((s) => s.reference === t.reference);
		const outcome: SettlementOutcome =
			mine.length === 0 ? 'not settled yet' : mine.length > 1 ? 'settled twice' : mine[0].amount !== t.amount ? 'settled with another amount' : 'settled';
		return { reference: t.reference, account_number: t.accountNumber, collected: formatAmount(t.amount), outcome };
	});
	const orphans = settlements
		.filter((s) => !refs.has(s.reference))
		.map((s) => ({ reference: s.reference, account_number: s.accountNumber, collected: null, outcome: 'settlement without a collection' as SettlementOutcome }));
	return [...outcomes, ...orphans];
}

/** Applies the plan to the bank and says what each row, collection and settlement should come to. */
export function applyDayPlan(bank: Bank, plan: DayPlan, nowMs: number) {
	check(bank, plan, nowMs);
	const [start] = dayBounds(plan.date);
	const rowAccounts = new Set(plan.payments.map((p) => p.account_number));
	let at = start + 8 * 3_600_000;
	const lateMs = Math.min(start + DAY_MS + 6 * 3_600_000, Math.max(start + DAY_MS, nowMs - 1000));
	const record = (accountNumber: string, amount: bigint, status: Transaction['status'], fault: SettlementFault = 'on time'): Made => {
		at += 17 * 60_000 + 23_000;
		const account = bank.accounts.get(accountNumber) as Account;
		const tx: Transaction = {
			id: bank.newId(),
			businessId: account.businessId,
			reference: runtimeReference('COL', at),
			accountNumber,
			accountName: account.accountName,
			amount,
			type: 'credit',
			category: 'collection',
			status,
			channel: 'nip',
			narration: `Payment to ${account.accountName}`,
			createdAtMs: at,
		};
		bank.addTransaction(tx);
		if (status === 'success') {
			const settleAt = fault === 'a day late' ? lateMs : at + 30 * 60_000;
			creditCollection(bank, tx, at, false);
			const settle = (settled: bigint) => addSettlement(bank, { reference: tx.reference, accountNumber, amount: settled }, account.businessId, settleAt);
			if (fault !== 'missing') settle(fault !== 'another amount' ? amount : amount > 5000n ? amount - 5000n : amount + 5000n);
			if (fault === 'twice') settle(amount);
		}
		return { reference: tx.reference, account_number: accountNumber, amount: formatAmount(amount), status, created_at: iso(at) };
	};
	const rows = plan.payments.map((p) => {
		customerAccount(bank, p);
		const made = payments(p).map((pay, i) => record(p.account_number, pay.amount, pay.status, i === 0 ? p.settlement : 'on time'));
		const strayed = p.paid_to ? [record(p.paid_to, p.amount, 'success')] : [];
		return {
			account_number: p.account_number,
			customer_name: p.customer_name ?? bank.accounts.get(p.account_number)?.accountName,
			amount: formatAmount(p.amount),
			outcome: p.outcome,
			paid: formatAmount(payments(p).reduce((sum, pay) => sum + (pay.status === 'success' ? pay.amount : 0n), 0n)),
			settlement: p.settlement ?? 'on time',
			collections: made,
			paid_instead_to: strayed,
		};
	});
	for (const u of plan.unexpected ?? []) record(u.account_number, u.amount, 'success');
	for (const o of plan.orphan_settlements ?? []) {
		at += 11 * 60_000;
		addSettlement(bank, { reference: runtimeReference('STL', at), accountNumber: o.account_number, amount: o.amount }, bank.main.id, at);
	}
	const [from, to] = dayBounds(plan.date);
	// Every successful collection of the day on an account no row names: the plan's strays and the generated history's.
	const unexpected = bank.transactions
		.filter((t) => t.businessId === bank.main.id && t.type === 'credit' && t.category === 'collection' && t.status === 'success')
		.filter((t) => t.createdAtMs >= from && t.createdAtMs < to && !rowAccounts.has(t.accountNumber))
		.map((t) => ({ reference: t.reference, account_number: t.accountNumber, amount: formatAmount(t.amount), created_at: iso(t.createdAtMs) }));
	return { date: plan.date, rows, unexpected, settlements: settlementOutcomes(bank, plan.date, 2) };
}

export type DayPlanResult = ReturnType<typeof applyDayPlan>;

/** The last day the generated history covers (yesterday, when it ends today as it does by default). */
export function lastHistoryDay(bank: Bank): string {
	return new Date(bank.config.historyEndMs - DAY_MS).toISOString().slice(0, 10);
}

/** The standard mix (sandbox/data/standardDayPlan.ts) on `date`, by default the history's last day. */
export function applyStandardDayPlan(bank: Bank, date = lastHistoryDay(bank), nowMs = Date.now()): DayPlanResult {
	return applyDayPlan(bank, standardDayPlan(date), nowMs);
}
