import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ACCOUNT_STATUS_CHANGES, optionsOf } from '../../optionLists';
import { bankRequest } from '../../transport/request';
import { accountStatusChangeSchema, validField } from '../../validation';
import { writeOptions } from '../commonFields';
import { accountLocator, requiredAccountNumber } from './accountLocator';
import { writeOnce } from '../lostAnswer';

export const description: INodeProperties[] = [
	accountLocator({
		displayName: 'Account Number',
		name: 'accountNumber',
		required: true,
		description: 'The account to activate or deactivate: pick one of your accounts, or give its 10-digit number',
	}),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		required: true,
		options: optionsOf(ACCOUNT_STATUS_CHANGES),
		default: 'inactive',
		description: 'The status to set. Blocked and closed accounts cannot be changed (the bank answers 45).',
	},
	writeOptions(),
];

/** Sets an account active or inactive; returns the updated account. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const accountNumber = requiredAccountNumber(this, itemIndex, 'accountNumber', 'Account Number');
	const status = validField(this, itemIndex, 'Status', accountStatusChangeSchema, this.getNodeParameter('status', itemIndex));
	const options = { itemIndex };
	// Setting a status twice leaves it the same, so a lost answer is checked on the account, then sent once more.
	return await writeOnce(this, itemIndex, async () => await bankRequest<IDataObject>(this, 'updateAccountStatus', { account_number: accountNumber, status }, options), {
		what: `Status ${status} for account ${accountNumber}`,
		howToCheck: `Check the status field of Account → Get Balance for account ${accountNumber}`,
		find: async () => {
			const account = await bankRequest<IDataObject>(this, 'getAccountBalance', { account_number: accountNumber }, options);
			return account.status === status ? account : undefined;
		},
		resendIsSafe: true,
	});
}

export const changesState = true;
