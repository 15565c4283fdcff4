import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { accountNumberSchema, accountNameSchema, booleanSchema, invalidInput, validField } from '../../validation';
import { accountLocator, requiredAccountNumber } from '../account/accountLocator';
import { readOptions } from '../commonFields';
import { bankCodeLocator, beneficiaryAccountNumberField, readBankCode, sameName } from './fields';

/** Its default is shown in the form and applied when the user did not add the option. */
const failIfNameDiffersField: INodeProperties = {
	displayName: 'Fail if Name Differs',
	name: 'failIfNameDiffers',
	type: 'boolean',
	default: true,
	description:
		'Whether to fail the item when the bank\'s name differs from Expected Name, so a payout flow stops before any money moves',
};

export const description: INodeProperties[] = [
	beneficiaryAccountNumberField('The 10-digit account number to look up (the account you intend to pay)'),
	bankCodeLocator(
		'id',
		'Bank holding the beneficiary account; 090823 for an account at this bank. Type the code: the bank list is read with the BaaS API credential, which this node does not use (the Bank → Get Many of the BaaS node lists the codes).',
	),
	accountLocator({
		displayName: 'Source Account Number',
		name: 'sourceAccountNumber',
		required: true,
		description: 'Your own account the payment would come from: pick it, or give its 10-digit number',
	}),
	readOptions([
		{
			displayName: 'Expected Name',
			name: 'expectedName',
			type: 'string',
			default: '',
			description:
				'The name you expect on the account. The output then says whether it matches (case and spacing are ignored).',
		},
		failIfNameDiffersField,
	]),
];

/** Looks up the name on a beneficiary account before paying it; optionally stops the item on a name mismatch. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const beneficiary = validField(this, itemIndex, 'Beneficiary Account Number', accountNumberSchema, this.getNodeParameter('beneficiaryAccountNumber', itemIndex));
	const bankCode = readBankCode(this, itemIndex);
	const source = requiredAccountNumber(this, itemIndex, 'sourceAccountNumber', 'Source Account Number');
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const rawExpected = options.expectedName ?? '';
	// The switch shows as on, so it is on unless the user added it and turned it off.
	const failIfDiffers = options.failIfNameDiffers === undefined
		? (failIfNameDiffersField.default as boolean)
		: validField(this, itemIndex, 'Fail if Name Differs', booleanSchema, options.failIfNameDiffers);
	const expected = rawExpected ? validField(this, itemIndex, 'Expected Name', accountNameSchema, rawExpected) : '';
	if (options.failIfNameDiffers === true && !expected) {
		throw invalidInput(this, itemIndex, 'Expected Name', 'must be set when "Fail if Name Differs" is on');
	}

	const result = await bankRequest<IDataObject>(
		this,
		'nameEnquiry',
		{ beneficiary_account_number: beneficiary, bank_code: bankCode, source_account_number: source },
		{ itemIndex },
	);
	if (!expected) return result;

	const actual = String(result.account_name ?? '');
	const matches = sameName(actual, expected);
	if (!matches && failIfDiffers) {
		throw new NodeOperationError(
			this.getNode(),
			`Name mismatch for account ${beneficiary}: the bank has "${actual}", expected "${expected}" (item ${itemIndex + 1})`,
			{
				itemIndex,
				description: 'The item stopped before any money moved. Check the beneficiary details or the expected name.',
			},
		);
	}
	return { ...result, expected_name: expected, name_matches: matches };
}
