import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchPages } from '../../transport/paging';
import { filterTextSchema } from '../../validation';
import { listScopeFields, readOptions } from '../commonFields';
import { accountNumberFilter, dateFilter, endDateFilter, filtersCollection, startDateFilter, transactionStatusFilter } from '../filterFields';
import { nestedFilters, readFilters, readListScope, transactionStatusInput } from '../listInputs';

export const description: INodeProperties[] = [
	...listScopeFields,
	filtersCollection([
		accountNumberFilter('Only settlements credited to this account'),
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
		transactionStatusFilter('Only settlements with this status; success means the credit is applied to the balance'),
	]),
	readOptions(),
];

/** Cleared inbound credits (settlements), newest first, one item per settlement; dates filter the settlement date. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = readFilters(this, itemIndex, {
		dates: true,
		inputs: {
			reference: { key: 'reference', field: 'Reference', schema: filterTextSchema },
			status: transactionStatusInput,
		},
		accounts: ['accountNumber'],
	});
	return await fetchPages(this, 'fetchSettlementTransactions', nestedFilters(filters), readListScope(this, itemIndex), { itemIndex });
}
