import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { readOptions } from '../commonFields';
import { accountLocator, requiredAccountNumber } from './accountLocator';

export const description: INodeProperties[] = [
	accountLocator({
		displayName: 'Account Number',
		name: 'accountNumber',
		required: true,
		description: 'The account whose balance to read: pick one of your accounts, or give its 10-digit number',
	}),
	readOptions(),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const accountNumber = requiredAccountNumber(this, itemIndex, 'accountNumber', 'Account Number');
	return await bankRequest<IDataObject>(this, 'getAccountBalance', { account_number: accountNumber }, { itemIndex });
}
