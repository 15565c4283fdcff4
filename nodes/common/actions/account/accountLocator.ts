import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { accountNumberSchema, invalidInput, validField } from '../../validation';

/**
 * The account picker every account-number parameter uses: a searchable list of the business's accounts
 * (methods.listSearch.searchAccounts, through fetch_customer_accounts; searchSendingAccounts for a transfer's
 * source: only accounts that can send, with their balances) or a number typed by hand.
 */
export function accountLocator(
	field: Pick<INodeProperties, 'displayName' | 'name'> & Partial<Pick<INodeProperties, 'description' | 'required'>>,
	list: 'searchAccounts' | 'searchSendingAccounts' = 'searchAccounts',
): INodeProperties {
	return {
		description: 'One of your business accounts: pick it from the list, or give its 10-digit number',
		...field,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an account...',
				typeOptions: { searchListMethod: list, searchable: true },
			},
			{
				displayName: 'By Number',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 0823100001',
				validation: [
					{
						type: 'regex',
						properties: { regex: '\\s*[0-9]{10}\\s*', errorMessage: 'An account number has exactly 10 digits' },
					},
				],
			},
		],
	};
}

/**
 * Reads an account locator (by its parameter path, e.g. `accountNumber` or `filters.accountNumber`) and
 * validates the number. Returns undefined when the field is optional and left empty.
 */
export function readAccountNumber(
	context: IExecuteFunctions,
	itemIndex: number,
	path: string,
	field: string,
	options: { optional?: boolean } = {},
): string | undefined {
	const value = context.getNodeParameter(path, itemIndex, '', { extractValue: true }) as unknown;
	if (value === undefined || value === null || value === '') {
		if (options.optional) return undefined;
		throw invalidInput(context, itemIndex, field, 'is required: pick an account or give its 10-digit number');
	}
	return validField(context, itemIndex, field, accountNumberSchema, value);
}

/** As readAccountNumber, for a parameter that must be given. */
export function requiredAccountNumber(context: IExecuteFunctions, itemIndex: number, path: string, field: string): string {
	return readAccountNumber(context, itemIndex, path, field) as string;
}

/** The account locators of the Filters collections (filterFields' accountNumberFilter and poolAccountNumberFilter). */
const ACCOUNT_FILTERS = {
	accountNumber: { key: 'account_number', field: 'Account Number' },
	poolAccountNumber: { key: 'pool_account_number', field: 'Pool Account Number' },
};

export type AccountFilter = keyof typeof ACCOUNT_FILTERS;

/** Reads the named account locators of Filters (each optional) and returns those set, under the bank's keys. */
export function readAccountFilters(context: IExecuteFunctions, itemIndex: number, names: AccountFilter[]): IDataObject {
	const out: IDataObject = {};
	for (const name of names) {
		const { key, field } = ACCOUNT_FILTERS[name];
		const value = readAccountNumber(context, itemIndex, `filters.${name}`, field, { optional: true });
		if (value !== undefined) out[key] = value;
	}
	return out;
}
