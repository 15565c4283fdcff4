import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import type { ListScope } from '../transport/paging';
import { accountStatusSchema, accountTypeFilterSchema, booleanSchema, dateSchema, positiveIntegerSchema, transactionStatusSchema, validDateRange, validField } from '../validation';
import { readAccountFilters, type AccountFilter } from './account/accountLocator';

/** Reads Return All / Limit (listScopeFields) of one item; the limit must be a whole number >= 1. */
export function readListScope(context: IExecuteFunctions, itemIndex: number): ListScope {
	// Simplify is applied after the answer, so it is checked here, before any request.
	validField(context, itemIndex, 'Simplify', booleanSchema, context.getNodeParameter('simplify', itemIndex, true));
	if (validField(context, itemIndex, 'Return All', booleanSchema, context.getNodeParameter('returnAll', itemIndex, false))) return { returnAll: true, limit: 0 };
	const limit = validField(context, itemIndex, 'Limit', positiveIntegerSchema, context.getNodeParameter('limit', itemIndex, 50));
	return { returnAll: false, limit };
}

/** One optional input of a collection: the bank's key, the name the user sees, and its rule. */
export interface OptionalInput {
	key: string;
	field: string;
	schema: z.ZodType<unknown, z.ZodTypeDef, unknown>;
}

const accountTypeInput: OptionalInput = { key: 'account_type', field: 'Account Type', schema: accountTypeFilterSchema };
const accountStatusInput: OptionalInput = { key: 'status', field: 'Status', schema: accountStatusSchema };

/** The account filters of filterFields: accountTypeFilter, isAvailableFilter, accountStatusFilter. */
export const accountFilterInputs: Record<string, OptionalInput> = {
	accountType: accountTypeInput,
	isAvailable: { key: 'is_available', field: 'Is Available', schema: booleanSchema },
	status: accountStatusInput,
};

/** As accountFilterInputs, for the operations without Is Available. */
export const accountTypeStatusInputs: Record<string, OptionalInput> = { accountType: accountTypeInput, status: accountStatusInput };

/**
 * Validates the inputs set in a collection (filters or additional fields) and returns them under the bank's
 * keys. An input left empty is not sent; false is a value (e.g. "available: no").
 */
export function readOptionalInputs(
	context: IExecuteFunctions,
	itemIndex: number,
	values: IDataObject,
	inputs: Record<string, OptionalInput>,
): IDataObject {
	const out: IDataObject = {};
	for (const [name, { key, field, schema }] of Object.entries(inputs)) {
		const value = values[name];
		if (value === undefined || value === null || value === '') continue;
		out[key] = validField(context, itemIndex, field, schema, value) as IDataObject[string];
	}
	return out;
}

/**
 * The date filters of a list: a single day `date` and the inclusive range start_date..end_date, each a real
 * YYYY-MM-DD date, with start not after end. (The bank lets `date` win over the range when both are given.)
 */
export function readDateFilters(context: IExecuteFunctions, itemIndex: number, values: IDataObject): IDataObject {
	const range = validDateRange(context, itemIndex, values.startDate, values.endDate);
	const date = values.date ? validField(context, itemIndex, 'Date', dateSchema, values.date) : undefined;
	return { ...(date ? { date } : {}), ...range };
}

/** What a Filters collection holds: the date filters (or not), optional inputs, and account locators. */
export interface FiltersSpec {
	dates?: boolean;
	inputs?: Record<string, OptionalInput>;
	accounts?: AccountFilter[];
}

/** Validates the Filters collection of one item and returns the filters set, under the bank's keys. */
export function readFilters(context: IExecuteFunctions, itemIndex: number, spec: FiltersSpec): IDataObject {
	const values = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return {
		...(spec.dates ? readDateFilters(context, itemIndex, values) : {}),
		...readOptionalInputs(context, itemIndex, values, spec.inputs ?? {}),
		...readAccountFilters(context, itemIndex, spec.accounts ?? []),
	};
}

/** The Status filter of transactions and settlements (filterFields' transactionStatusFilter). */
export const transactionStatusInput: OptionalInput = { key: 'status', field: 'Status', schema: transactionStatusSchema };

/** The request body part for filters the bank takes nested: `{ filters }`, or nothing when none is set. */
export function nestedFilters(filters: IDataObject): IDataObject {
	return Object.keys(filters).length > 0 ? { filters } : {};
}
