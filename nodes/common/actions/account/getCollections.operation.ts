import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchByCursor } from '../../transport/paging';
import { listScopeFields, readOptions, simplifyField } from '../commonFields';
import { accountNumberFilter, accountStatusFilter, accountTypeFilter, dateFilter, endDateFilter, filtersCollection, poolAccountNumberFilter, startDateFilter } from '../filterFields';
import { accountTypeStatusInputs, readFilters, readListScope } from '../listInputs';
import { simplifyAsAsked } from '../simplify';
import { SIMPLE_COLLECTION_FIELDS } from '../simplifiedFields';

export const description: INodeProperties[] = [
	...listScopeFields,
	filtersCollection([
		accountNumberFilter(),
		accountTypeFilter,
		dateFilter,
		endDateFilter,
		poolAccountNumberFilter,
		startDateFilter,
		accountStatusFilter,
	]),
	simplifyField,
	readOptions(),
];

/**
 * Inbound payments per account: how many collections each account received and their total amount. The
 * date filters scope the totals; every matching account is listed, with zero totals when it received nothing.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const body = readFilters(this, itemIndex, {
		dates: true,
		inputs: accountTypeStatusInputs,
		accounts: ['accountNumber', 'poolAccountNumber'],
	});
	const records = await fetchByCursor(this, 'fetchAccountCollections', body, readListScope(this, itemIndex), { itemIndex });
	return simplifyAsAsked(this, itemIndex, records, SIMPLE_COLLECTION_FIELDS);
}
