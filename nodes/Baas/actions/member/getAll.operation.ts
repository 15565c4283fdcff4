import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchPages } from '../../transport/paging';
import { booleanSchema, filterTextSchema, oneOfSchema, uuidSchema } from '../../validation';
import { DEFAULT_READ_CONCURRENCY, listScopeFields, optionsCollection } from '../commonFields';
import { dateFilter, endDateFilter, filtersCollection, startDateFilter } from '../filterFields';
import { nestedFilters, readFilters, readListScope, readOptionalInputs } from '../listInputs';
import { roleIdField } from '../role/roleIdField';

export const description: INodeProperties[] = [
	...listScopeFields,
	filtersCollection([
		{
			displayName: 'Active',
			name: 'isActive',
			type: 'boolean',
			default: true,
			description: 'Whether to return only members who have activated their account (on) or only those who have not (off)',
		},
		{ ...dateFilter, description: 'Only members who joined on this day, written YYYY-MM-DD' },
		{ ...endDateFilter, description: 'Only members who joined on or before this day, written YYYY-MM-DD' },
		roleIdField('Only members holding this role (its UUID)', { required: false }),
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Text to look for in e-mail, first name and last name',
		},
		{ ...startDateFilter, description: 'Only members who joined on or after this day, written YYYY-MM-DD' },
	]),
	optionsCollection(DEFAULT_READ_CONCURRENCY, [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: [
				{ name: 'Date Joined', value: 'date_joined' },
				{ name: 'Email', value: 'email' },
				{ name: 'First Name', value: 'first_name' },
				{ name: 'Last Name', value: 'last_name' },
			],
			default: 'date_joined',
		},
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'asc' },
				{ name: 'Descending', value: 'desc' },
			],
			default: 'desc',
		},
	]),
];

/** Team members of the dashboard, page by page, one item per member. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scope = readListScope(this, itemIndex);
	const filters = readFilters(this, itemIndex, {
		dates: true,
		inputs: {
			isActive: { key: 'is_active', field: 'Active', schema: booleanSchema },
			roleId: { key: 'role_id', field: 'Role ID', schema: uuidSchema },
			search: { key: 'search', field: 'Search', schema: filterTextSchema },
		},
	});
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const sorting = readOptionalInputs(this, itemIndex, options, {
		sortBy: { key: 'sort_by', field: 'Sort By', schema: oneOfSchema(['date_joined', 'email', 'first_name', 'last_name']) },
		sortOrder: { key: 'sort_order', field: 'Sort Order', schema: oneOfSchema(['asc', 'desc']) },
	});
	const body: IDataObject = { ...sorting, ...nestedFilters(filters) };
	return await fetchPages(this, 'fetchMembers', body, scope, { itemIndex, variant: 'web' });
}
