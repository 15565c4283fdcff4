import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsOf, TRANSACTION_TYPES } from '../../optionLists';
import { fetchPages } from '../../transport/paging';
import { variantOf } from '../../transport/request';
import { filterTextSchema, transactionTypeSchema } from '../../validation';
import { listScopeFields, readOptions, simplifyField } from '../commonFields';
import { accountNumberFilter, dateFilter, endDateFilter, filtersCollection, startDateFilter, transactionStatusFilter } from '../filterFields';
import { nestedFilters, readFilters, readListScope, transactionStatusInput } from '../listInputs';
import { simplifyAsAsked } from '../simplify';
import { SIMPLE_TRANSACTION_FIELDS } from '../simplifiedFields';

export const description: INodeProperties[] = [
	...listScopeFields,
	filtersCollection([
		accountNumberFilter('Only transactions of this account'),
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
		transactionStatusFilter('Only transactions with this status'),
		{
			displayName: 'Type',
			name: 'transactionType',
			type: 'options',
			options: optionsOf(TRANSACTION_TYPES),
			default: 'credit',
			description: 'Only money in (credit) or money out (debit)',
		},
	]),
	{ ...simplifyField, displayOptions: { show: { authentication: ['apiClient'] } } },
	readOptions(),
];

/** Transaction history, newest first, one item per transaction; amounts are decimal strings in NGN. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = readFilters(this, itemIndex, {
		dates: true,
		inputs: {
			transactionType: { key: 'transaction_type', field: 'Type', schema: transactionTypeSchema },
			status: transactionStatusInput,
			transactionCategory: { key: 'transaction_category', field: 'Category', schema: filterTextSchema },
			referenceNumber: { key: 'reference_number', field: 'Reference Number', schema: filterTextSchema },
			channel: { key: 'channel', field: 'Channel', schema: filterTextSchema },
			search: { key: 'search', field: 'Search', schema: filterTextSchema },
		},
		accounts: ['accountNumber'],
	});
	const scope = readListScope(this, itemIndex);
	const records = await fetchPages(this, 'fetchTransactions', nestedFilters(filters), scope, { itemIndex });
	// Simplify is shown with the API-client credential only.
	return variantOf(this) === 'api' ? simplifyAsAsked(this, itemIndex, records, SIMPLE_TRANSACTION_FIELDS) : records;
}
