import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchByCursor } from '../../transport/paging';
import { accountStatusSchema, accountTypeFilterSchema } from '../../validation';
import { DEFAULT_READ_CONCURRENCY, listScopeFields, optionsCollection, simplifyField } from '../commonFields';
import { accountStatusOptions, accountTypeOptions, dateFilter, endDateFilter, startDateFilter } from '../filterFields';
import { readDateFilters, readListScope, readOptionalInputs } from '../listInputs';
import { pickFields } from '../simplify';
import { SIMPLE_COLLECTION_FIELDS } from '../simplifiedFields';
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
			dateFilter,
			endDateFilter,
			accountLocator({
				displayName: 'Pool Account Number',
				name: 'poolAccountNumber',
				description: 'Only virtual accounts linked to this pool account',
			}),
			startDateFilter,
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

/**
 * Inbound payments per account: how many collections each account received and their total amount. The
 * date filters scope the totals; every matching account is listed, with zero totals when it received nothing.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...readOptionalInputs(this, itemIndex, filters, {
			accountType: { key: 'account_type', field: 'Account Type', schema: accountTypeFilterSchema },
			status: { key: 'status', field: 'Status', schema: accountStatusSchema },
		}),
		...readDateFilters(this, itemIndex, filters),
	};
	const account = readAccountNumber(this, itemIndex, 'filters.accountNumber', 'Account Number', { optional: true });
	if (account !== undefined) body.account_number = account;
	const pool = readAccountNumber(this, itemIndex, 'filters.poolAccountNumber', 'Pool Account Number', { optional: true });
	if (pool !== undefined) body.pool_account_number = pool;
	const records = await fetchByCursor(this, 'fetchAccountCollections', body, readListScope(this, itemIndex), { itemIndex });
	return (this.getNodeParameter('simplify', itemIndex, true) as boolean) ? pickFields(records, SIMPLE_COLLECTION_FIELDS) : records;
}
