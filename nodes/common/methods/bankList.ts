import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bankRequest, variantOf } from '../transport/request';

/** The contract advises caching the bank list for at least 24 hours. */
export const BANK_LIST_TTL_MS = 24 * 60 * 60 * 1000;

export interface BankEntry {
	name: string;
	code: string;
}

/** Bank lists by base URL, kept in this process's memory; an entry is refreshed when older than the TTL (no timers). */
const bankLists = new Map<string, { fetchedAt: number; banks: BankEntry[] }>();

const SWITCH_TO_CODE = 'Switch the Bank Code field to "By Code" and type the code (for example 000014).';

/**
 * The banks of fetch_banks, from the cache when fresh. fetch_banks is an /api/ route: the BaaS Dashboard node
 * (or a version 1 BaaS node set to Dashboard User) cannot reach it, and the picker says so instead of failing obscurely.
 */
export async function cachedBanks(context: ILoadOptionsFunctions): Promise<BankEntry[]> {
	if (variantOf(context) === 'web') {
		throw new NodeOperationError(
			context.getNode(),
			`The bank list needs the API Client authentication, which this node does not use (fetch_banks is an /api/ endpoint). ${SWITCH_TO_CODE}`,
			{ description: 'Bank codes are listed by the BaaS node: Bank → Get Many, with the BaaS API credential.' },
		);
	}
	const credentials = await context.getCredentials('baasApi');
	const key = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '');
	const cached = bankLists.get(key);
	if (cached && Date.now() - cached.fetchedAt < BANK_LIST_TTL_MS) return cached.banks;

	let records: IDataObject[];
	try {
		records = await bankRequest<IDataObject[]>(context, 'fetchBanks', {}, { variant: 'api' });
	} catch (error) {
		throw new NodeOperationError(context.getNode(), `Could not load the bank list: ${(error as Error).message}. ${SWITCH_TO_CODE}`);
	}
	const banks = (Array.isArray(records) ? records : [])
		.filter((bank) => typeof bank.code === 'string' && bank.code !== '')
		.map((bank) => ({ name: String(bank.name ?? bank.code), code: bank.code as string }))
		.sort((a, b) => a.name.localeCompare(b.name));
	bankLists.set(key, { fetchedAt: Date.now(), banks });
	return banks;
}

/** Drops every cached bank list (for a bank code the bank rejected, and for tests). */
export function forgetBankLists(): void {
	bankLists.clear();
}
