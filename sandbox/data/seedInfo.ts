/** The documented seed values (what the CLI prints and GET /__sandbox/seed returns). */
import {
	BLOCKED_ACCOUNT,
	BUSINESS_ACCOUNTS,
	CLOSED_ACCOUNT,
	CREDENTIALS,
	FAILING_BENEFICIARIES,
	FAILING_IDENTITIES,
	FOREIGN_ACCOUNT,
	OWN_BANK_CODE,
	POOL_ACCOUNT,
} from './fixtures';
import type { Bank } from '../state/bank';
import type { SeedInfo } from '../types';

export function seedInfo(bank: Bank): SeedInfo {
	return {
		clientId: CREDENTIALS.clientId,
		clientSecret: CREDENTIALS.clientSecret,
		webhookSecret: CREDENTIALS.webhookSecret,
		dashboardEmail: CREDENTIALS.dashboardEmail,
		dashboardPassword: CREDENTIALS.dashboardPassword,
		businessName: CREDENTIALS.businessName,
		poolAccountNumber: POOL_ACCOUNT,
		accounts: BUSINESS_ACCOUNTS.map((a) => ({ account_number: a.number, account_name: a.name, account_type: a.type, status: a.status })),
		foreignAccountNumber: FOREIGN_ACCOUNT,
		blockedAccountNumber: BLOCKED_ACCOUNT,
		closedAccountNumber: CLOSED_ACCOUNT,
		externalAccounts: bank.externalAccounts.map((e) => ({ bank_code: e.bankCode, account_number: e.accountNumber, account_name: e.accountName })),
		failingBeneficiaries: [...FAILING_BENEFICIARIES],
		failingIdentities: [...FAILING_IDENTITIES],
		ownBankCode: OWN_BANK_CODE,
		historyEnd: new Date(bank.config.historyEndMs).toISOString(),
	};
}
