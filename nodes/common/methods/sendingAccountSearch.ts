import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { ACCOUNT_SEARCH_LIMIT } from './accountSearch';
import { bankRequest } from '../transport/request';

/** "52345678.125000000" -> "52,345,678.13" (half up, on the digits: no binary float). Anything else as given. */
export function formatBalance(balance: unknown): string {
	const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(balance ?? '').trim());
	if (!match) return String(balance ?? '?');
	const [, sign, whole, fraction = ''] = match;
	const digits = fraction.padEnd(3, '0');
	const cents = BigInt(whole) * 100n + BigInt(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1n : 0n);
	const grouped = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	return `${sign}${grouped}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** An account's balance in kobo for ordering (an overdrawn account sorts below an empty one); unreadable: 0. */
const cents = (account: IDataObject): bigint => {
	const match = /^(-?)(\d+)(?:\.(\d{1,2}))?/.exec(String(account.balance ?? '').trim());
	if (!match) return 0n;
	const amount = BigInt(match[2]) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
	return match[1] === '-' ? -amount : amount;
};

/**
 * Send money's Source Account list from the bank's account records: only the accounts that can send (status
 * active and not marked unavailable; blocked, inactive and closed ones would be refused by the bank, code 57),
 * each with its number, status and balance ahead of its name, the largest balance first (funded before empty), then by name. The search
 * text filters by number or name, as in the other account lists.
 */
export function sendingAccountResults(accounts: unknown, filter?: string): INodeListSearchItems[] {
	const needle = (filter ?? '').trim().toLowerCase();
	return (Array.isArray(accounts) ? (accounts as IDataObject[]) : [])
		.filter((account) => account !== null && typeof account === 'object' && typeof account.account_number === 'string')
		.filter((account) => account.status === 'active' && account.is_available !== false)
		.filter(
			(account) =>
				needle === '' ||
				String(account.account_number).includes(needle) ||
				String(account.account_name ?? '').toLowerCase().includes(needle),
		)
		.sort((a, b) => {
			const [left, right] = [cents(a), cents(b)];
			if (left !== right) return right > left ? 1 : -1;
			return String(a.account_name ?? '').localeCompare(String(b.account_name ?? ''));
		})
		.map((account) => ({
			// Number, status and balance first: n8n's list cuts a long entry at its width, and a long account name
			// (e.g. "Sandbox Business Ltd - Operations") hid the balance.
			name: `${String(account.account_number)} · ${String(account.status)} · NGN ${formatBalance(account.balance)} · ${String(account.account_name ?? '')}`,
			value: String(account.account_number),
		}));
}

/** The list method behind Send money's Source Account: one read of the business's accounts (up to 100). */
export async function searchSendingAccounts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const accounts = await bankRequest<IDataObject[]>(this, 'fetchCustomerAccounts', { limit: ACCOUNT_SEARCH_LIMIT });
	return { results: sendingAccountResults(accounts, filter) };
}
