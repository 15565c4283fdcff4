import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import type { ListScope } from '../transport/paging';
import { dateSchema, positiveIntegerSchema, validDateRange, validField } from '../validation';

/** Reads Return All / Limit (listScopeFields) of one item; the limit must be a whole number >= 1. */
export function readListScope(context: IExecuteFunctions, itemIndex: number): ListScope {
	if (context.getNodeParameter('returnAll', itemIndex, false) as boolean) return { returnAll: true, limit: 0 };
	const limit = validField(context, itemIndex, 'Limit', positiveIntegerSchema, context.getNodeParameter('limit', itemIndex, 50));
	return { returnAll: false, limit };
}

/** One optional input of a collection: the bank's key, the name the user sees, and its rule. */
export interface OptionalInput {
	key: string;
	field: string;
	schema: z.ZodType<unknown, z.ZodTypeDef, unknown>;
}

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
