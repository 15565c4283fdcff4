/** The contract's refusals of a transfer, in the order the bank checks them, before anything moves. */
import { ApiError } from '../http/envelope';
import { OWN_BANK_CODE } from '../data/fixtures';
import type { Bank, TransferInput } from './bank';
import type { Account } from './records';

/** The accounts a transfer moves money between, and its bank code; throws the contract's error for a refused one. */
export function checkTransfer(bank: Bank, businessId: string, input: TransferInput): { source: Account; beneficiary?: Account; bankCode: string } {
	const ref = input.reference_number;
	if (bank.findTransfer(businessId, ref) || bank.findTransaction(businessId, ref)) {
		throw new ApiError('26', `Duplicate reference: reference_number ${ref} has already been used`);
	}
	const bankCode = input.transfer_type === 'intra' ? (input.bank_code ?? OWN_BANK_CODE) : input.bank_code;
	if (input.transfer_type === 'intra' && bankCode !== OWN_BANK_CODE) {
		throw new ApiError('99', `bank_code: must be ${OWN_BANK_CODE} (or absent) for an intra-bank transfer`);
	}
	if (input.transfer_type === 'inter') {
		if (!bankCode || !bank.bankByCode(bankCode)) {
			throw new ApiError('99', `bank_code: unknown bank code '${bankCode ?? ''}'; use a code from fetch_banks`);
		}
		if (bankCode === OWN_BANK_CODE) {
			throw new ApiError('99', `bank_code: ${OWN_BANK_CODE} is this bank; use transfer_type intra`);
		}
	}
	if (input.source_account_number === input.beneficiary_account_number) {
		throw new ApiError('99', 'beneficiary_account_number: must differ from source_account_number');
	}
	const source = bank.ownedAccount(businessId, input.source_account_number);
	if (!source) throw new ApiError('44', `Source account not found: ${input.source_account_number}`);
	if (source.status !== 'active') {
		throw new ApiError('57', `Source account ${source.accountNumber} is ${source.status} and cannot send funds`);
	}
	let beneficiary: Account | undefined;
	if (input.transfer_type === 'intra') {
		beneficiary = bank.accounts.get(input.beneficiary_account_number);
		if (!beneficiary) {
			throw new ApiError('83', `Transfer rejected: beneficiary ${input.beneficiary_account_number} is not an account of this bank`);
		}
		if (beneficiary.status !== 'active') {
			throw new ApiError('83', `Transfer rejected: beneficiary account ${beneficiary.accountNumber} is ${beneficiary.status}`);
		}
	}
	if (source.balance < input.amount) {
		throw new ApiError('51', `Insufficient funds in ${source.accountNumber}`);
	}
	return { source, beneficiary, bankCode: bankCode as string };
}
