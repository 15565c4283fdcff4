import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { bankRequest } from '../transport/request';

/** How many accounts the picker reads from the bank (one request); the search text filters those. */
export const ACCOUNT_SEARCH_LIMIT = 100;

/**
 * The account picker's list: up to 100 of the business's accounts (fetch_customer_accounts, with the
 * credential of the node's Authentication), kept when the search text is in the number or the name.
 */
export async function searchAccounts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const accounts = await bankRequest<IDataObject[]>(this, 'fetchCustomerAccounts', { limit: ACCOUNT_SEARCH_LIMIT });
	const needle = (filter ?? '').trim().toLowerCase();
	const results = (Array.isArray(accounts) ? accounts : [])
		.filter((account) => typeof account.account_number === 'string')
		.filter(
			(account) =>
				needle === '' ||
				String(account.account_number).includes(needle) ||
				String(account.account_name ?? '').toLowerCase().includes(needle),
		)
		.map((account) => ({
			name: `${String(account.account_name ?? '')} (${String(account.account_number)})`,
			value: String(account.account_number),
		}));
	return { results };
}
