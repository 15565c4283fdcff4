import type { INodeProperties } from 'n8n-workflow';

/** Options of the account type filter (the bank's filter values; `pool` appears in answers only). */
export const accountTypeOptions = [
	{ name: 'Current', value: 'current' },
	{ name: 'Normal', value: 'normal' },
	{ name: 'Savings', value: 'savings' },
	{ name: 'Virtual', value: 'virtual' },
];

export const accountStatusOptions = [
	{ name: 'Active', value: 'active' },
	{ name: 'Blocked', value: 'blocked' },
	{ name: 'Closed', value: 'closed' },
	{ name: 'Inactive', value: 'inactive' },
	{ name: 'Pending', value: 'pending' },
];

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
