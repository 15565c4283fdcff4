import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchByCursor } from '../../transport/paging';
import { accountStatusSchema, accountTypeFilterSchema, booleanSchema } from '../../validation';
import { DEFAULT_READ_CONCURRENCY, listScopeFields, optionsCollection } from '../commonFields';
import { accountStatusOptions, accountTypeOptions } from '../filterFields';
import { readListScope, readOptionalInputs } from '../listInputs';
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
			accountLocator({
				displayName: 'Pool Account Number',
				name: 'poolAccountNumber',
				description: 'Only virtual accounts linked to this pool account',
			}),
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
	optionsCollection(DEFAULT_READ_CONCURRENCY),
];

/** The business's accounts (customer virtual accounts and its own), newest first, one item per account. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = readOptionalInputs(this, itemIndex, this.getNodeParameter('filters', itemIndex, {}) as IDataObject, {
		accountType: { key: 'account_type', field: 'Account Type', schema: accountTypeFilterSchema },
		isAvailable: { key: 'is_available', field: 'Is Available', schema: booleanSchema },
		status: { key: 'status', field: 'Status', schema: accountStatusSchema },
	});
	const pool = readAccountNumber(this, itemIndex, 'filters.poolAccountNumber', 'Pool Account Number', { optional: true });
	if (pool !== undefined) filters.pool_account_number = pool;
	const scope = readListScope(this, itemIndex);
	const body: IDataObject = Object.keys(filters).length > 0 ? { filters } : {};
	return await fetchByCursor(this, 'fetchCustomerAccounts', body, scope, { itemIndex });
}
