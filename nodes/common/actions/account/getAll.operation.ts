import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchByCursor } from '../../transport/paging';
import { listScopeFields, readOptions } from '../commonFields';
import { accountStatusFilter, accountTypeFilter, filtersCollection, isAvailableFilter, poolAccountNumberFilter } from '../filterFields';
import { accountFilterInputs, nestedFilters, readFilters, readListScope } from '../listInputs';

export const description: INodeProperties[] = [
	...listScopeFields,
	filtersCollection([accountTypeFilter, isAvailableFilter, poolAccountNumberFilter, accountStatusFilter]),
	readOptions(),
];

/** The business's accounts (customer virtual accounts and its own), newest first, one item per account. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = readFilters(this, itemIndex, { inputs: accountFilterInputs, accounts: ['poolAccountNumber'] });
	const scope = readListScope(this, itemIndex);
	return await fetchByCursor(this, 'fetchCustomerAccounts', nestedFilters(filters), scope, { itemIndex });
}
