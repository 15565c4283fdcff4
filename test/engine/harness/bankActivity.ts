/**
 * Activity at the sandbox bank for the poll tests, made in-process (faster than the control routes for thousands
 * of records, and able to give a burst one shared timestamp). The trigger still reads it all over HTTP.
 */
import type { FaultSpec, SandboxHandle } from '../../../sandbox';
import type { Transfer } from '../../../sandbox/state/records';

export const POOL = '0823000001';
export const VIRTUALS = ['0823100001', '0823100002', '0823100003', '0823100004', '0823100005', '0823100006'];
/** An inter-bank beneficiary that settles successfully, and one that always fails. */
export const GOOD_BENEFICIARY = { account: '1234567890', bankCode: '000013' };
export const FAILING_BENEFICIARY = { account: '9990000001', bankCode: '000013' };

let sequence = 0;
const nextReference = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++sequence}`;

/** One collection (a successful credit) on `account`, created at `atMs` (default now). Returns its reference. */
export function collect(bank: SandboxHandle, account = VIRTUALS[0], atMs = Date.now()): string {
	const reference = nextReference('COL');
	bank.bank.collect({ accountNumber: account, amount: 100n, reference, senderName: 'Poll Test' }, atMs);
	return reference;
}

/** A transfer from the pool: intra settles at once; inter stays pending until `settle` (or the bank's settle). */
export function transfer(
	bank: SandboxHandle,
	kind: 'intra' | 'inter' | 'failing',
	atMs = Date.now(),
): Transfer {
	const beneficiary = kind === 'failing' ? FAILING_BENEFICIARY : GOOD_BENEFICIARY;
	return bank.bank.initiateTransfer(
		bank.bank.main.id,
		{
			reference_number: nextReference('TRF'),
			transfer_type: kind === 'intra' ? 'intra' : 'inter',
			amount: 100n,
			source_account_number: POOL,
			beneficiary_account_number: kind === 'intra' ? VIRTUALS[1] : beneficiary.account,
			bank_code: kind === 'intra' ? undefined : beneficiary.bankCode,
			narration: 'Poll test payout',
		},
		atMs,
	);
}

/** Ends a pending inter-bank transfer now (a failing beneficiary fails, any other succeeds). */
export function settle(bank: SandboxHandle, pending: Transfer): void {
	bank.bank.finalizeTransfer(pending, Date.now());
}

/** The bank reverses a transfer it reported successful: its status and its debit's become failed. */
export function reverse(bank: SandboxHandle, t: Transfer): void {
	t.status = 'failed';
	t.updatedAtMs = Date.now();
	const debit = bank.bank.findTransaction(t.businessId, t.reference);
	if (debit) debit.status = 'failed';
}

/** The one-shot faults the poll suites throw at a poll: 80, 429, a connection dropped before or after, 80 on a status look-up. */
export const POLL_FAULTS: readonly FaultSpec[] = [
	{ match: 'fetch_transactions', errorCode: '80' },
	{ match: 'fetch_transactions', rateLimit: { retryAfterSeconds: 1 } },
	{ match: 'fetch_transactions', drop: 'before' },
	{ match: 'fetch_transactions', drop: 'after' },
	{ match: 'transaction_status', errorCode: '80' },
];
