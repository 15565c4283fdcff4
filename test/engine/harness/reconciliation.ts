/** What the reconciliation suites share: collections made through the sandbox's control route, and the ledger as oracle. */
import type { IDataObject } from 'n8n-workflow';

import type { BankFixture } from './bankFixture';

/** An inbound payment, made as a customer's bank would: POST /__sandbox/collections (credit, transaction, settlement). */
export async function collect(fx: BankFixture, body: { account_number: string; amount: string; reference?: string }): Promise<IDataObject> {
	const answer = await fetch(`${fx.bank.url}/__sandbox/collections`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const envelope = (await answer.json()) as { status: boolean; message: string; data: IDataObject };
	if (!envelope.status) throw new Error(`collection refused: ${envelope.message}`);
	return envelope.data;
}

/**
 * A collection left pending or failed at the bank. The control route makes successful collections only, so the
 * test sets the status in the running bank's state (and takes the credit back, as a bank that never paid would).
 */
export function leaveCollectionAs(fx: BankFixture, reference: string, status: 'pending' | 'failed'): void {
	const transaction = fx.bank.bank.findTransaction(fx.bank.bank.main.id, reference);
	if (!transaction) throw new Error(`no transaction ${reference}`);
	transaction.status = status;
	const settlements = fx.bank.bank.settlements;
	const index = settlements.findIndex((settlement) => settlement.reference === reference);
	if (index >= 0) removeSettlementAt(fx, index);
}

/** Removes a settlement from both of the bank's list orders (a settlement the bank never made). */
export function removeSettlementAt(fx: BankFixture, index: number): void {
	const [settlement] = fx.bank.bank.settlements.splice(index, 1);
	const written = fx.bank.bank.settlementLedger.written;
	written.splice(written.indexOf(settlement), 1);
}

/** The UTC day of an ISO time. */
export const dayOf = (iso: unknown) => String(iso).slice(0, 10);

/** The fields every reconciled row gets, without its own columns. */
export function outcomeOf(json: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(json).filter(([key]) => key.startsWith('reconciliation_')));
}

/** A settlement the bank made with no collection behind it (or a second one for a collection), in both list orders. */
export function addSettlement(fx: BankFixture, settlement: { reference: string; accountNumber: string; amount: bigint; settlementDateMs: number }): void {
	const record = { id: fx.bank.bank.newId(), businessId: fx.bank.bank.main.id, status: 'success' as const, createdAtMs: settlement.settlementDateMs, ...settlement };
	const list = fx.bank.bank.settlements;
	let at = list.length;
	while (at > 0 && list[at - 1].createdAtMs > record.createdAtMs) at--;
	list.splice(at, 0, record);
	fx.bank.bank.settlementLedger.written.push(record);
}

/** The bank's settlement of `reference`, to change as a real day may (another amount, a later date). */
export function settlementOf(fx: BankFixture, reference: string) {
	const found = fx.bank.bank.settlements.find((settlement) => settlement.reference === reference);
	if (!found) throw new Error(`no settlement ${reference}`);
	return found;
}
