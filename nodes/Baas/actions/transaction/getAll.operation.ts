import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchPages } from '../../transport/paging';
import { variantOf } from '../../transport/request';
import { filterTextSchema, transactionStatusSchema, transactionTypeSchema } from '../../validation';
import { accountLocator, readAccountNumber } from '../account/accountLocator';
import { DEFAULT_READ_CONCURRENCY, listScopeFields, optionsCollection, simplifyField } from '../commonFields';
import { dateFilter, endDateFilter, startDateFilter } from '../filterFields';
import { readDateFilters, readListScope, readOptionalInputs } from '../listInputs';
import { pickFields } from '../simplify';
import { SIMPLE_TRANSACTION_FIELDS } from '../simplifiedFields';

export const description: INodeProperties[] = [
	...listScopeFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			accountLocator({ displayName: 'Account Number', name: 'accountNumber', description: 'Only transactions of this account' }),
			{
				displayName: 'Category',
				name: 'transactionCategory',
				type: 'string',
				default: '',
				placeholder: 'e.g. collection',
				description: 'Only this category, for example collection (inbound) or transfer (outbound)',
			},
			{
				displayName: 'Channel',
				name: 'channel',
				type: 'string',
				default: '',
				placeholder: 'e.g. nip',
				description: 'Only this channel, for example nip (inter-bank) or intra (within this bank)',
			},
			dateFilter,
			endDateFilter,
			{
				displayName: 'Reference Number',
				name: 'referenceNumber',
				type: 'string',
				default: '',
				description: 'Only the transaction with exactly this reference number',
			},
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. invoice',
				description: 'Free text found in the narration or the reference number (not case-sensitive)',
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
				description: 'Only transactions with this status',
			},
			{
				displayName: 'Type',
				name: 'transactionType',
				type: 'options',
				options: [
					{ name: 'Credit (Inbound)', value: 'credit' },
					{ name: 'Debit (Outbound)', value: 'debit' },
				],
				default: 'credit',
				description: 'Only money in (credit) or money out (debit)',
			},
		],
	},
	{ ...simplifyField, displayOptions: { show: { authentication: ['apiClient'] } } },
	optionsCollection(DEFAULT_READ_CONCURRENCY),
];

/** Transaction history, newest first, one item per transaction; amounts are decimal strings in NGN. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const values = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {
		...readDateFilters(this, itemIndex, values),
		...readOptionalInputs(this, itemIndex, values, {
			transactionType: { key: 'transaction_type', field: 'Type', schema: transactionTypeSchema },
			status: { key: 'status', field: 'Status', schema: transactionStatusSchema },
			transactionCategory: { key: 'transaction_category', field: 'Category', schema: filterTextSchema },
			referenceNumber: { key: 'reference_number', field: 'Reference Number', schema: filterTextSchema },
			channel: { key: 'channel', field: 'Channel', schema: filterTextSchema },
			search: { key: 'search', field: 'Search', schema: filterTextSchema },
		}),
	};
	const account = readAccountNumber(this, itemIndex, 'filters.accountNumber', 'Account Number', { optional: true });
	if (account !== undefined) filters.account_number = account;
	const scope = readListScope(this, itemIndex);
	const body: IDataObject = Object.keys(filters).length > 0 ? { filters } : {};
	const records = await fetchPages(this, 'fetchTransactions', body, scope, { itemIndex });
	const simplify = variantOf(this) === 'api' && (this.getNodeParameter('simplify', itemIndex, true) as boolean);
	return simplify ? pickFields(records, SIMPLE_TRANSACTION_FIELDS) : records;
}
