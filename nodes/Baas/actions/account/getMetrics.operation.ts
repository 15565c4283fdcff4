import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { accountStatusSchema, accountTypeFilterSchema, booleanSchema, positiveIntegerSchema } from '../../validation';
import { DEFAULT_READ_CONCURRENCY, optionsCollection } from '../commonFields';
import { accountStatusOptions, accountTypeOptions, dateFilter, endDateFilter, startDateFilter } from '../filterFields';
import { readDateFilters, readOptionalInputs } from '../listInputs';
import { accountLocator, readAccountNumber } from './accountLocator';

export const description: INodeProperties[] = [
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
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
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
		],
	},
	optionsCollection(DEFAULT_READ_CONCURRENCY),
];

/**
 * Business-wide figures in one record: active, inactive and virtual account counts, volume collected in the
 * date range, and combined balance, optionally scoped by account, type or status.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const values = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {
		...readDateFilters(this, itemIndex, values),
		...readOptionalInputs(this, itemIndex, values, {
			accountType: { key: 'account_type', field: 'Account Type', schema: accountTypeFilterSchema },
			status: { key: 'status', field: 'Status', schema: accountStatusSchema },
		}),
	};
	const account = readAccountNumber(this, itemIndex, 'filters.accountNumber', 'Account Number', { optional: true });
	if (account !== undefined) filters.account_number = account;
	const body = readOptionalInputs(this, itemIndex, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject, {
		count: { key: 'count', field: 'Max Accounts', schema: positiveIntegerSchema },
		skipCount: { key: 'skip_count', field: 'Skip Counting', schema: booleanSchema },
	});
	if (Object.keys(filters).length > 0) body.filters = filters;
	return await bankRequest<IDataObject>(this, 'getTotalAccountMetrics', body, { itemIndex });
}
