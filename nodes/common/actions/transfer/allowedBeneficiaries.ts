import type { IExecuteFunctions } from 'n8n-workflow';

import { invalidInput } from '../../validation';
import { OWN_BANK_CODE } from './fields';

/**
 * Allowed Beneficiaries: an account is an account number AT a bank (NUBAN numbers are unique per bank only), so an
 * entry is `ACCOUNT:BANKCODE` (e.g. 1234567890:000013). A bare 10-digit number means that account at this bank
 * (090823): allowing "1234567890" never lets a payment reach 1234567890 at another bank.
 */
export interface AllowedBeneficiary {
	account: string;
	bankCode: string;
}

const ENTRY = /^(\d{10})(?:\s*[:@/]\s*(\d{3,6}))?$/;

export const spell = (account: string, bankCode: string) => `${account}:${bankCode}`;

/** Entries of the field: text separated by commas, semicolons, spaces or new lines, or a list from an expression. */
function entriesOf(value: unknown): string[] {
	const parts = Array.isArray(value) ? value.map((part) => String(part ?? '')) : [String(value)];
	return parts
		.join(',')
		.replace(/\s*[:@/]\s*/g, ':')
		.split(/[\s,;]+/)
		.filter((entry) => entry !== '');
}

/** Parses the field's value (not empty): a malformed entry refuses the item, naming it. */
export function allowedBeneficiariesOf(context: IExecuteFunctions, itemIndex: number, value: unknown): AllowedBeneficiary[] {
	const entries = entriesOf(value);
	return entries.map((entry) => {
		const match = ENTRY.exec(entry);
		if (!match) {
			throw invalidInput(
				context,
				itemIndex,
				'Allowed Beneficiaries',
				'must list accounts as ACCOUNT:BANKCODE (10-digit account number, bank code of 3 to 6 digits; a bare account number means this bank, 090823), separated by commas, spaces or new lines',
				entry,
			);
		}
		return { account: match[1], bankCode: match[2] ?? OWN_BANK_CODE };
	});
}

export function isAllowed(allowed: AllowedBeneficiary[], body: { beneficiary_account_number: string; bank_code: string }): boolean {
	return allowed.some((entry) => entry.account === body.beneficiary_account_number && entry.bankCode === body.bank_code);
}
