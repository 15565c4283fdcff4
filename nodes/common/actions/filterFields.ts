import type { INodeProperties } from 'n8n-workflow';

import { ACCOUNT_STATUSES, ACCOUNT_TYPES, optionsOf, TRANSACTION_STATUSES } from '../optionLists';
import { accountLocator } from './account/accountLocator';

/** The Filters collection of a list operation; `options` in the collection's alphabetical order by name. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options };
}

/** Filters on accounts (read by listInputs' accountFilterInputs and readAccountFilters). */
export const accountTypeFilter: INodeProperties = {
	displayName: 'Account Type',
	name: 'accountType',
	type: 'options',
	options: optionsOf(ACCOUNT_TYPES),
	default: 'virtual',
	description: 'Only accounts of this type',
};

export const isAvailableFilter: INodeProperties = {
	displayName: 'Is Available',
	name: 'isAvailable',
	type: 'boolean',
	default: true,
	description: 'Whether to return only accounts that can send and receive funds (on) or only those that cannot (off)',
};

export const accountStatusFilter: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	options: optionsOf(ACCOUNT_STATUSES),
	default: 'active',
	description: 'Only accounts with this status',
};

export function accountNumberFilter(description = 'Only this account'): INodeProperties {
	return accountLocator({ displayName: 'Account Number', name: 'accountNumber', description });
}

export const poolAccountNumberFilter: INodeProperties = accountLocator({
	displayName: 'Pool Account Number',
	name: 'poolAccountNumber',
	description: 'Only virtual accounts linked to this pool account',
});

/** The Status filter of transactions and settlements (the bank's transaction statuses). */
export function transactionStatusFilter(description: string): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: optionsOf(TRANSACTION_STATUSES),
		default: 'success',
		description,
	};
}

/** Filters by day, for the Filters collections (sorted into each collection's alphabetical order by name). */
export const dateFilter: INodeProperties = {
	displayName: 'Date',
	name: 'date',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2025-12-31',
	description: 'A single day, written YYYY-MM-DD. When set, the bank uses it instead of Start Date and End Date.',
};

export const startDateFilter: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2025-12-01',
	description: 'First day to include, written YYYY-MM-DD (inclusive)',
};

export const endDateFilter: INodeProperties = {
	displayName: 'End Date',
	name: 'endDate',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2025-12-31',
	description: 'Last day to include, written YYYY-MM-DD (inclusive); must not be before Start Date',
};
