/** A collection's money and settlement, apart from its transaction: a pending one ends later, a day plan settles its own. */
import { ApiError } from '../http/envelope';
import type { Bank } from './bank';
import type { Account, Settlement, Transaction } from './records';
import { insertAscending } from './sorted';

export function addSettlement(bank: Bank, fields: Pick<Settlement, 'reference' | 'accountNumber' | 'amount'>, businessId: string, atMs: number): Settlement {
	const settlement: Settlement = { id: bank.newId(), businessId, ...fields, status: 'success', settlementDateMs: atMs, createdAtMs: atMs };
	insertAscending(bank.settlements, settlement);
	bank.settlementLedger.written.push(settlement);
	return settlement;
}

/** A successful collection: its account credited and, when `settle`, its settlement recorded at the same instant. */
export function creditCollection(bank: Bank, transaction: Transaction, nowMs: number, settle: boolean): Settlement | undefined {
	const account = bank.accounts.get(transaction.accountNumber) as Account;
	account.balance += transaction.amount;
	account.lastBalanceUpdateMs = Math.max(account.lastBalanceUpdateMs, nowMs);
	if (!settle) return undefined;
	return addSettlement(bank, { reference: transaction.reference, accountNumber: account.accountNumber, amount: transaction.amount }, account.businessId, nowMs);
}

/**
 * A pending collection ends: `failed` moves no money; `success` credits the account and settles it now. The
 * transaction keeps its created_at (a bank's record of a payment that cleared late), only its status changes.
 */
export function finishCollection(bank: Bank, reference: string, status: 'success' | 'failed', nowMs: number): Transaction {
	const transaction = bank.findTransaction(bank.main.id, reference);
	if (!transaction || transaction.type !== 'credit' || transaction.category !== 'collection') {
		throw new ApiError('25', `reference: no collection ${reference}`, 404);
	}
	if (transaction.status !== 'pending') throw new ApiError('99', `reference: collection ${reference} is ${transaction.status}, not pending`);
	transaction.status = status;
	if (status === 'success') creditCollection(bank, transaction, nowMs, true);
	return transaction;
}
