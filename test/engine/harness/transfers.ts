/** The bank set-up and helpers the transfer engine tests share (transfer-*.test.ts). */
import { STATUS_POLLING } from '../../../nodes/Baas/actions/transfer/exactlyOnce';
import { API, useBankFixture, type BankFixture } from './bankFixture';
import { rl } from './nodeParameters';
import { runNode } from './runNode';

export const OPERATIONS = '0823000002';
export const POOL = '0823000001';
export const INACTIVE = '0823000003';
export const CUSTOMER = '0823100001';

export const byCode = (value: string) => rl(value, 'id');
export const fromList = (value: string) => rl(value, 'list');
export const byNumber = (value: string) => rl(value, 'id');

let refSeq = 0;
export const newReference = (label: string) => `T-${label}-${Date.now()}-${++refSeq}`;

/** A sandbox whose inter-bank transfers settle after 300 ms, with the node's status polling at its default. */
export function useTransferBank(): BankFixture {
	return useBankFixture({ interSettleDelayMs: 300 }, (started) => {
		started.bank.configure({ interSettleDelayMs: 300 });
		STATUS_POLLING.firstIntervalMs = 5_000;
	});
}

/** Helpers bound to one fixture: balances and transfers in the bank's state, and Transfer → Create runs. */
export function transferHelpers(fx: BankFixture) {
	const balance = (accountNumber: string): bigint => fx.bank.bank.accounts.get(accountNumber)!.balance;
	const transfersWith = (reference: string) => [...fx.bank.bank.transfers.values()].filter((t) => t.reference === reference);
	const createParams = (overrides: Record<string, unknown> = {}) => ({
		authentication: 'apiClient',
		resource: 'transfer',
		operation: 'create',
		transferType: 'intra',
		amount: '1500.50',
		sourceAccountNumber: byNumber(OPERATIONS),
		beneficiaryAccountNumber: CUSTOMER,
		narration: 'Engine test payout',
		...overrides,
	});
	const createTransfer = async (reference: string, overrides: Record<string, unknown> = {}, continueOnFail = false) =>
		await runNode(fx.credentials, {
			parameters: createParams(overrides),
			credentials: API,
			items: [{ reference_number: reference }],
			continueOnFail,
		});
	return { balance, transfersWith, createParams, createTransfer };
}
