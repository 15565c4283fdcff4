import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { accountNumberSchema, validField } from '../../validation';
import { optionsCollection } from '../commonFields';
import { DEFAULT_READ_CONCURRENCY } from '../router';

export const description: INodeProperties[] = [
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0123456789',
		description: 'The 10-digit number of one of your business accounts',
	},
	optionsCollection(DEFAULT_READ_CONCURRENCY),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const accountNumber = validField(
		this,
		itemIndex,
		'Account Number',
		accountNumberSchema,
		this.getNodeParameter('accountNumber', itemIndex),
	);
	return await bankRequest<IDataObject>(this, 'getAccountBalance', { account_number: accountNumber }, { itemIndex });
}
