import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { booleanSchema, positiveIntegerSchema } from '../../validation';
import { additionalFieldsCollection, readOptions } from '../commonFields';
import { accountNumberFilter, accountStatusFilter, accountTypeFilter, dateFilter, endDateFilter, filtersCollection, startDateFilter } from '../filterFields';
import { accountTypeStatusInputs, nestedFilters, readFilters, readOptionalInputs } from '../listInputs';

export const description: INodeProperties[] = [
	filtersCollection([
		accountNumberFilter(),
		accountTypeFilter,
		dateFilter,
		endDateFilter,
		startDateFilter,
		accountStatusFilter,
	]),
	additionalFieldsCollection([
		{
			displayName: 'Max Accounts',
			name: 'count',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description: 'Count at most this many accounts (the newest first)',
		},
		{
			displayName: 'Skip Counting',
			name: 'skipCount',
			type: 'boolean',
			default: true,
			description:
				'Whether to skip counting active, inactive and virtual accounts (faster); the counts are then empty and only amounts are returned',
		},
	]),
	readOptions(),
];

/**
 * Business-wide figures in one record: active, inactive and virtual account counts, volume collected in the
 * date range, and combined balance, optionally scoped by account, type or status.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const filters = readFilters(this, itemIndex, {
		dates: true,
		inputs: accountTypeStatusInputs,
		accounts: ['accountNumber'],
	});
	const body = readOptionalInputs(this, itemIndex, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject, {
		count: { key: 'count', field: 'Max Accounts', schema: positiveIntegerSchema },
		skipCount: { key: 'skip_count', field: 'Skip Counting', schema: booleanSchema },
	});
	return await bankRequest<IDataObject>(this, 'getTotalAccountMetrics', { ...body, ...nestedFilters(filters) }, { itemIndex });
}
