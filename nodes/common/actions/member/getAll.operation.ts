import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchPages } from '../../transport/paging';
import { MEMBER_SORT_FIELDS, optionsOf, SORT_ORDERS } from '../../optionLists';
import { booleanSchema, filterTextSchema, memberSortFieldSchema, sortOrderSchema, uuidSchema } from '../../validation';
import { listScopeFields, readOptions } from '../commonFields';
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
	readOptions([
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: optionsOf(MEMBER_SORT_FIELDS),
			default: 'date_joined',
		},
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			options: optionsOf(SORT_ORDERS),
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
		sortBy: { key: 'sort_by', field: 'Sort By', schema: memberSortFieldSchema },
		sortOrder: { key: 'sort_order', field: 'Sort Order', schema: sortOrderSchema },
	});
	const body: IDataObject = { ...sorting, ...nestedFilters(filters) };
	return await fetchPages(this, 'fetchMembers', body, scope, { itemIndex, variant: 'web' });
}
