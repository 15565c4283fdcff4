import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { cachedBanks } from './bankList';

/** List mode of the Bank Code resource locator: the cached bank list, filtered by name or code. */
export async function searchBanks(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const banks = await cachedBanks(this);
	const needle = (filter ?? '').trim().toLowerCase();
	const matching = needle
		? banks.filter((bank) => bank.name.toLowerCase().includes(needle) || bank.code.includes(needle))
		: banks;
	return { results: matching.map((bank) => ({ name: `${bank.name} (${bank.code})`, value: bank.code })) };
}
