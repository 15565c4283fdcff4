import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchByCursor } from '../../transport/paging';
import { listScopeFields, readOptions, simplifyField } from '../commonFields';
import { accountNumberFilter, accountStatusFilter, accountTypeFilter, filtersCollection, isAvailableFilter } from '../filterFields';
import { accountFilterInputs, readFilters, readListScope } from '../listInputs';
import { simplifyAsAsked } from '../simplify';
import { SIMPLE_SUMMARY_FIELDS } from '../simplifiedFields';

export const description: INodeProperties[] = [
	...listScopeFields,
	filtersCollection([accountNumberFilter(), accountTypeFilter, isAvailableFilter, accountStatusFilter]),
	simplifyField,
	readOptions(),
];

/** Each account with its lifetime totals: collections and transfers (count and amount), last transaction. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const body = readFilters(this, itemIndex, { inputs: accountFilterInputs, accounts: ['accountNumber'] });
	const records = await fetchByCursor(this, 'fetchAccountSummaries', body, readListScope(this, itemIndex), { itemIndex });
	return simplifyAsAsked(this, itemIndex, records, SIMPLE_SUMMARY_FIELDS);
}
