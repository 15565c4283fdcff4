import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { accountNameSchema, emailSchema, identityNumberSchema, invalidInput, phoneSchema, validField } from '../../validation';
import { writeOptions } from '../commonFields';
import { writeOnce } from '../lostAnswer';

export const description: INodeProperties[] = [
	{
		displayName: 'Account Name',
		name: 'accountName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Adaeze Okonkwo',
		description: 'Name the new virtual account is shown under (usually the customer\'s name)',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'name@email.com',
		description: 'The customer\'s e-mail address',
	},
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +2348031234567',
		description: 'The customer\'s phone number',
	},
	{
		displayName: 'BVN',
		name: 'bvn',
		type: 'string',
		default: '',
		placeholder: 'e.g. 22212345678',
		description: 'The customer\'s 11-digit Bank Verification Number. Give the BVN, the NIN, or both.',
	},
	{
		displayName: 'NIN',
		name: 'nin',
		type: 'string',
		default: '',
		placeholder: 'e.g. 12345678901',
		description: 'The customer\'s 11-digit National Identification Number. Give the BVN, the NIN, or both.',
	},
	writeOptions(),
];

/** A number from a sheet cell is read as its digits; a missing value (an empty cell) as empty text. */
function text(value: unknown): unknown {
	if (value === undefined || value === null) return '';
	return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
}

function optionalIdentity(context: IExecuteFunctions, itemIndex: number, name: 'bvn' | 'nin'): string | undefined {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null || value === '') return undefined;
	return validField(context, itemIndex, name.toUpperCase(), identityNumberSchema, text(value));
}

/** Opens a permanent virtual account for a customer; the bank verifies the BVN/NIN first (83 when it fails). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body: IDataObject = {
		account_name: validField(this, itemIndex, 'Account Name', accountNameSchema, text(this.getNodeParameter('accountName', itemIndex))),
		email: validField(this, itemIndex, 'Email', emailSchema, text(this.getNodeParameter('email', itemIndex))),
		phone: validField(this, itemIndex, 'Phone', phoneSchema, text(this.getNodeParameter('phone', itemIndex))),
	};
	const bvn = optionalIdentity(this, itemIndex, 'bvn');
	const nin = optionalIdentity(this, itemIndex, 'nin');
	if (bvn === undefined && nin === undefined) {
		throw invalidInput(this, itemIndex, 'BVN', 'or NIN is required: give at least one of the two');
	}
	if (bvn !== undefined) body.bvn = bvn;
	if (nin !== undefined) body.nin = nin;
	const since = new Date().toISOString();
	// Account records carry no BVN, NIN or e-mail, so the node cannot tell a lost new account from another customer's: a person checks.
	return await writeOnce(this, itemIndex, async () => await bankRequest<IDataObject>(this, 'createCustomerAccount', body, { itemIndex, variant: 'api' }), {
		what: `Account "${String(body.account_name)}"`,
		howToCheck: `Look in Account → Get Many (Filters → Account Type: Virtual) for an account named "${String(body.account_name)}" created since ${since}`,
	});
}

export const changesState = true;
