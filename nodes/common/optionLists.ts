import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Every fixed list of values the nodes offer: each list feeds both the field's options in the form and the
 * check of the value before a request (oneOfSchema(valuesOf(list))), so the two cannot drift apart.
 * Each list is in alphabetical order by name, as n8n's form expects.
 */

type OptionList = readonly [INodePropertyOptions & { value: string }, ...Array<INodePropertyOptions & { value: string }>];

/** The values of a list, typed for zod's enum. */
export function valuesOf<L extends OptionList>(list: L): [L[number]['value'], ...Array<L[number]['value']>] {
	return list.map((option) => option.value) as [L[number]['value'], ...Array<L[number]['value']>];
}

/** The form's options of a list (a mutable copy, as INodeProperties wants). */
export function optionsOf(list: OptionList): INodePropertyOptions[] {
	return list.map((option) => ({ ...option }));
}

/** Account filter types; answers can also carry `pool`, which is not a filter value. */
export const ACCOUNT_TYPES = [
	{ name: 'Current', value: 'current' },
	{ name: 'Normal', value: 'normal' },
	{ name: 'Savings', value: 'savings' },
	{ name: 'Virtual', value: 'virtual' },
] as const satisfies OptionList;

export const ACCOUNT_STATUSES = [
	{ name: 'Active', value: 'active' },
	{ name: 'Blocked', value: 'blocked' },
	{ name: 'Closed', value: 'closed' },
	{ name: 'Inactive', value: 'inactive' },
	{ name: 'Pending', value: 'pending' },
] as const satisfies OptionList;

/** update_account_status accepts only these two. */
export const ACCOUNT_STATUS_CHANGES = [
	{ name: 'Active', value: 'active', description: 'The account can send and receive funds' },
	{ name: 'Inactive', value: 'inactive', description: 'The account stops sending and receiving funds' },
] as const satisfies OptionList;

export const TRANSACTION_TYPES = [
	{ name: 'Credit (Inbound)', value: 'credit' },
	{ name: 'Debit (Outbound)', value: 'debit' },
] as const satisfies OptionList;

export const TRANSACTION_STATUSES = [
	{ name: 'Failed', value: 'failed' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'Success', value: 'success' },
] as const satisfies OptionList;

export const TRANSFER_TYPES = [
	{ name: 'Inter-Bank', value: 'inter', description: 'To an account at another bank (pending, then successful or failed)' },
	{ name: 'Intra-Bank', value: 'intra', description: 'To another account at this bank (completes at once)' },
] as const satisfies OptionList;

export type TransferType = (typeof TRANSFER_TYPES)[number]['value'];

export const MEMBER_SORT_FIELDS = [
	{ name: 'Date Joined', value: 'date_joined' },
	{ name: 'Email', value: 'email' },
	{ name: 'First Name', value: 'first_name' },
	{ name: 'Last Name', value: 'last_name' },
] as const satisfies OptionList;

export const SORT_ORDERS = [
	{ name: 'Ascending', value: 'asc' },
	{ name: 'Descending', value: 'desc' },
] as const satisfies OptionList;

/** The bank's webhook event kinds: Webhook → Create registers them, the BaaS Trigger listens to them. */
export const WEBHOOK_EVENTS = [
	{ name: 'Collection Success', value: 'COLLECTION_SUCCESS', description: 'An inbound payment landed on one of your accounts' },
	{ name: 'Transfer Failed', value: 'TRANSFER_FAILED', description: 'A transfer failed: no funds were debited, or the debit was reversed' },
	{ name: 'Transfer Success', value: 'TRANSFER_SUCCESS', description: 'A transfer reached the beneficiary' },
] as const satisfies OptionList;

/** Reconciliation → Match Expected Payments: what an expected payment and a collection are matched on. */
export const MATCH_KEYS = [
	{ name: 'Reference', value: 'reference', description: "The payment's reference (the bank's reference_number) equals the row's reference" },
	{ name: 'Virtual Account', value: 'virtualAccount', description: 'The account the money was paid into equals the row\'s account (one virtual account per customer)' },
] as const satisfies OptionList;

/** Reconciliation → Match Expected Payments: where the expected payments come from. */
export const EXPECTED_SOURCES = [
	{ name: 'Input Items', value: 'items', description: 'Each input item is one expected payment (a Data Table, a sheet, a CSV)' },
	{ name: 'JSON', value: 'json', description: 'A JSON array of expected payments in one field, e.g. given by an AI agent calling the node as a tool' },
] as const satisfies OptionList;

/** Reconciliation → Get Statement: one item per transaction, or one CSV file. */
export const STATEMENT_OUTPUTS = [
	{ name: 'CSV File', value: 'csv', description: 'One item holding the statement as a CSV file (binary data), with the totals in its JSON' },
	{ name: 'Items', value: 'items', description: 'One item per transaction, in the bank\'s order' },
] as const satisfies OptionList;
