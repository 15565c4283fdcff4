import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchPages } from '../../transport/paging';
import { filterTextSchema, transactionStatusSchema } from '../../validation';
import { accountLocator, readAccountNumber } from '../account/accountLocator';
import { DEFAULT_READ_CONCURRENCY, listScopeFields, optionsCollection } from '../commonFields';
import { dateFilter, endDateFilter, startDateFilter } from '../filterFields';
import { readDateFilters, readListScope, readOptionalInputs } from '../listInputs';

export const description: INodeProperties[] = [
	...listScopeFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			accountLocator({ displayName: 'Account Number', name: 'accountNumber', description: 'Only settlements credited to this account' }),
			dateFilter,
			endDateFilter,
			{
				displayName: 'Reference',
				name: 'reference',
				type: 'string',
				default: '',
				description: 'Only the settlement with exactly this reference (to match against your own payment records)',
			},
			startDateFilter,
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Failed', value: 'failed' },
					{ name: 'Pending', value: 'pending' },
					{ name: 'Success', value: 'success' },
				],
				default: 'success',
				description: 'Only settlements with this status; success means the credit is applied to the balance',
			},
		],
	},
	optionsCollection(DEFAULT_READ_CONCURRENCY),
];

/** Cleared inbound credits (settlements), newest first, one item per settlement; dates filter the settlement date. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const values = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {
		...readDateFilters(this, itemIndex, values),
		...readOptionalInputs(this, itemIndex, values, {
			reference: { key: 'reference', field: 'Reference', schema: filterTextSchema },
			status: { key: 'status', field: 'Status', schema: transactionStatusSchema },
		}),
	};
	const account = readAccountNumber(this, itemIndex, 'filters.accountNumber', 'Account Number', { optional: true });
	if (account !== undefined) filters.account_number = account;
	const body: IDataObject = Object.keys(filters).length > 0 ? { filters } : {};
	return await fetchPages(this, 'fetchSettlementTransactions', body, readListScope(this, itemIndex), { itemIndex });
}
