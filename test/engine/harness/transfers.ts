/** The seeded accounts, form values and bank look-ups the transfer engine tests share (transfer-*.test.ts, input-checks.test.ts). */
import type { IDataObject } from 'n8n-workflow';

import { STATUS_POLLING } from '../../../nodes/common/actions/transfer/exactlyOnce';
import { OPERATIONS, POOL } from './accounts';
import { API, useBankFixture } from './bankFixture';
import { rl } from './nodeParameters';
import { runNode } from './runNode';

export { OPERATIONS, POOL, SAVINGS_INACTIVE as INACTIVE } from './accounts';
export const CUSTOMER = '0823100001';

export const byCode = (value: string) => rl(value, 'id');
export const fromList = (value: string) => rl(value, 'list');
export const byNumber = (value: string) => rl(value, 'id');

let refSeq = 0;
export const newReference = (label: string) => `T-${label}-${Date.now()}-${++refSeq}`;

/** Transfer → Create's form: 1,500.50 from the operations account to a customer at this bank, with `overrides`. */
export function createParams(overrides: Record<string, unknown> = {}) {
	return {
		authentication: 'apiClient',
		resource: 'transfer',
		operation: 'create',
		transferType: 'intra',
		amount: '1500.50',
		sourceAccountNumber: byNumber(OPERATIONS),
		beneficiaryAccountNumber: CUSTOMER,
		narration: 'Engine test payout',
		...overrides,
	};
}

/** Transfer → Name Enquiry's form (dashboard credential): the customer's account at this bank, with `overrides`. */
export function nameEnquiryParams(overrides: Record<string, unknown> = {}): IDataObject {
	return {
		authentication: 'dashboardUser',
		resource: 'transfer',
		operation: 'nameEnquiry',
		beneficiaryAccountNumber: CUSTOMER,
		bankCode: byCode('090823'),
		sourceAccountNumber: byNumber(POOL),
		...overrides,
	};
}

/**
 * The bank fixture of a transfer test file: inter-bank transfers settle after 300 ms, and status polling is back
 * at the contract's 5 s after each test (tests that wait for a final status shorten it).
 */
export function useTransferBank() {
	const fx = useBankFixture({ interSettleDelayMs: 300 }, (started) => {
		started.bank.configure({ interSettleDelayMs: 300 });
		STATUS_POLLING.firstIntervalMs = 5_000;
	});
	return {
		fx,
		balance: (accountNumber: string): bigint => fx.bank.bank.accounts.get(accountNumber)!.balance,
		transfersWith: (reference: string) => [...fx.bank.bank.transfers.values()].filter((t) => t.reference === reference),
		createTransfer: async (reference: string, overrides: Record<string, unknown> = {}, continueOnFail: boolean | 'errorOutput' = false) =>
			await runNode(fx.credentials, {
				parameters: createParams(overrides),
				credentials: API,
				items: [{ reference_number: reference }],
				continueOnFail,
			}),
	};
}

/** The name the sandbox holds on CUSTOMER (what a Name Enquiry returns). */
export const CUSTOMER_NAME = 'Adaeze Okonkwo';

/** Send money as the treasury assistant example has it: the agent gives reference, amount, beneficiary and name. */
export const toolSendMoney = (overrides: IDataObject = {}): IDataObject => ({
	...createParams(),
	referenceNumber: "={{ $fromAI('reference', 'Your reference for this payment', 'string') }}",
	amount: "={{ $fromAI('amount', 'Amount in NGN, e.g. 2500.00', 'string') }}",
	beneficiaryAccountNumber: "={{ $fromAI('beneficiary_account', 'The account to pay', 'string') }}",
	narration: 'Agent payout',
	checkBeneficiaryName: true,
	additionalFields: { beneficiaryAccountName: "={{ $fromAI('beneficiary_name', 'The name Name Enquiry returned', 'string') }}" },
	...overrides,
});
