import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchByCursor } from '../../transport/paging';
import { accountStatusSchema, accountTypeFilterSchema, booleanSchema } from '../../validation';
import { DEFAULT_READ_CONCURRENCY, listScopeFields, optionsCollection, simplifyField } from '../commonFields';
import { accountStatusOptions, accountTypeOptions } from '../filterFields';
import { readListScope, readOptionalInputs } from '../listInputs';
import { pickFields } from '../simplify';
import { SIMPLE_SUMMARY_FIELDS } from '../simplifiedFields';
import { accountLocator, readAccountNumber } from './accountLocator';

export const description: INodeProperties[] = [
	...listScopeFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			accountLocator({ displayName: 'Account Number', name: 'accountNumber', description: 'Only this account' }),
			{
				displayName: 'Account Type',
				name: 'accountType',
				type: 'options',
				options: accountTypeOptions,
				default: 'virtual',
				description: 'Only accounts of this type',
			},
			{
				displayName: 'Is Available',
				name: 'isAvailable',
				type: 'boolean',
				default: true,
				description: 'Whether to return only accounts that can send and receive funds (on) or only those that cannot (off)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: accountStatusOptions,
				default: 'active',
				description: 'Only accounts with this status',
			},
		],
	},
	simplifyField,
	optionsCollection(DEFAULT_READ_CONCURRENCY),
];

/** Each account with its lifetime totals: collections and transfers (count and amount), last transaction. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const body = readOptionalInputs(this, itemIndex, this.getNodeParameter('filters', itemIndex, {}) as IDataObject, {
		accountType: { key: 'account_type', field: 'Account Type', schema: accountTypeFilterSchema },
		isAvailable: { key: 'is_available', field: 'Is Available', schema: booleanSchema },
		status: { key: 'status', field: 'Status', schema: accountStatusSchema },
	});
	const account = readAccountNumber(this, itemIndex, 'filters.accountNumber', 'Account Number', { optional: true });
	if (account !== undefined) body.account_number = account;
	const records = await fetchByCursor(this, 'fetchAccountSummaries', body, readListScope(this, itemIndex), { itemIndex });
	return (this.getNodeParameter('simplify', itemIndex, true) as boolean) ? pickFields(records, SIMPLE_SUMMARY_FIELDS) : records;
}
