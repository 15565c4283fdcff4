import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import {
	ACCOUNT_STATUS_CHANGES,
	ACCOUNT_STATUSES,
	ACCOUNT_TYPES,
	EXPECTED_SOURCES,
	MATCH_KEYS,
	MEMBER_SORT_FIELDS,
	SORT_ORDERS,
	STATEMENT_OUTPUTS,
	TRANSACTION_STATUSES,
	TRANSACTION_TYPES,
	TRANSFER_TYPES,
	valuesOf,
} from './optionLists';

export { amountSchema, compareAmounts, MAX_AMOUNT_INTEGER_DIGITS, toAmountString, toKobo, toleranceSchema } from './amounts';

/** Input rules from the bank's documented limits and the README's assumptions, checked before anything is sent to the bank. */

/** Free text the bank stores or searches: not empty, bounded, and without control characters (NUL, line breaks, …). */
export function textSchema(maxLength: number) {
	return z
		.string({ invalid_type_error: 'must be text', required_error: 'is required' })
		.trim()
		.min(1, 'must not be empty')
		.max(maxLength, `must be at most ${maxLength} characters`)
		// eslint-disable-next-line no-control-regex -- control characters are what this rule refuses
		.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters such as line breaks');
}

export const accountNumberSchema = z
	.string({ invalid_type_error: 'must be text of 10 digits' })
	.trim()
	.regex(/^\d{10}$/, 'must be exactly 10 digits');

/** BVN and NIN: exactly 11 digits. */
export const identityNumberSchema = z
	.string()
	.trim()
	.regex(/^\d{11}$/, 'must be exactly 11 digits');

export const emailSchema = z.string().trim().email('must be a valid e-mail address');

export const uuidSchema = z.string().trim().uuid('must be a UUID (for example 3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b)');

export const roleNameSchema = textSchema(255);

export const bankCodeSchema = z
	.string()
	.trim()
	.regex(/^\d{3,6}$/, 'must be a bank code of 3 to 6 digits (from Bank → Get Many)');

export const referenceSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(64, 'must be at most 64 characters')
	.regex(/^[A-Za-z0-9._:/-]+$/, 'may contain only letters, digits and . _ : / -');

/** A calendar date written YYYY-MM-DD that exists (2026-02-30 does not). */
export const dateSchema = z
	.string()
	.trim()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
	.refine((value) => {
		const [year, month, day] = value.split('-').map(Number);
		const date = new Date(Date.UTC(year, month - 1, day));
		return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	}, 'is not a real calendar date');

/** A value from a fixed list (an options field, or an expression feeding one). */
export function oneOfSchema<T extends [string, ...string[]]>(values: T) {
	const problem = `must be one of ${values.join(', ')}`;
	return z
		.string({ invalid_type_error: problem, required_error: `is required: ${problem}` })
		.trim()
		.pipe(z.enum(values, { errorMap: () => ({ message: problem }) }));
}

/** Checks of the fixed lists, from the same constants as the form's options (optionLists.ts). */
export const accountTypeFilterSchema = oneOfSchema(valuesOf(ACCOUNT_TYPES));
export const accountStatusSchema = oneOfSchema(valuesOf(ACCOUNT_STATUSES));
export const accountStatusChangeSchema = oneOfSchema(valuesOf(ACCOUNT_STATUS_CHANGES));
export const transactionTypeSchema = oneOfSchema(valuesOf(TRANSACTION_TYPES));
export const transactionStatusSchema = oneOfSchema(valuesOf(TRANSACTION_STATUSES));
export const transferTypeSchema = oneOfSchema(valuesOf(TRANSFER_TYPES));
export const memberSortFieldSchema = oneOfSchema(valuesOf(MEMBER_SORT_FIELDS));
export const sortOrderSchema = oneOfSchema(valuesOf(SORT_ORDERS));

export const accountNameSchema = textSchema(255);

/** Digits with an optional leading +, spaces, hyphens or brackets between them; 7 to 15 digits in all. */
export const phoneSchema = z
	.string({ invalid_type_error: 'must be text such as +2348031234567', required_error: 'is required' })
	.trim()
	.min(1, 'must not be empty')
	.regex(/^\+?[\d\s()-]+$/, 'may contain only digits, a leading +, spaces, hyphens and brackets')
	.refine((value) => {
		const digits = value.replace(/\D/g, '').length;
		return digits >= 7 && digits <= 15;
	}, 'must have 7 to 15 digits');

/** Free-text filters (search, category, channel, references). */
export const filterTextSchema = textSchema(255);

export const booleanSchema = z.boolean({ invalid_type_error: 'must be true or false', required_error: 'is required' });

/** A whole number of at least 1 (a number field, or digits from an expression). */
export const positiveIntegerSchema = z.preprocess(
	(value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
	z
		.number({ invalid_type_error: 'must be a whole number of at least 1' })
		.int('must be a whole number')
		.min(1, 'must be at least 1')
		.lte(Number.MAX_SAFE_INTEGER, 'is too large'),
);

/**
 * Validates one field of one item. A failure names the field, the problem and the item, and stops that item
 * before any request is sent.
 */
export function validField<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
	value: unknown,
): T {
	const parsed = schema.safeParse(value);
	if (parsed.success) return parsed.data;
	const problem = parsed.error.issues.map((issue) => issue.message).join('; ');
	throw invalidInput(context, itemIndex, field, problem, value);
}

/** The error for a value that breaks a rule spanning fields (e.g. start date after end date). */
export function invalidInput(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	value?: unknown,
): NodeOperationError {
	const shown = typeof value === 'string' || typeof value === 'number' ? ` (got "${String(value)}")` : '';
	return new NodeOperationError(context.getNode(), `${field} ${problem}${shown} in item ${itemIndex + 1}`, {
		itemIndex,
		description: `Fix the value of "${field}" for this item; nothing was sent to the bank.`,
	});
}

/** Checks an optional YYYY-MM-DD range: each date valid, and start not after end. */
export function validDateRange(
	context: IExecuteFunctions,
	itemIndex: number,
	startDate: unknown,
	endDate: unknown,
): { start_date?: string; end_date?: string } {
	const start = startDate ? validField(context, itemIndex, 'Start Date', dateSchema, startDate) : undefined;
	const end = endDate ? validField(context, itemIndex, 'End Date', dateSchema, endDate) : undefined;
	if (start && end && start > end) throw invalidInput(context, itemIndex, 'Start Date', `must not be after End Date ${end}`, start);
	return { ...(start ? { start_date: start } : {}), ...(end ? { end_date: end } : {}) };
}

/** Transfer narration (stored by the bank as remarks). */
export const narrationSchema = textSchema(255);

/** First or last name of a team member. */
export const personNameSchema = textSchema(150);

/** An address the bank can call (webhooks): http or https, absolute. */
export const httpUrlSchema = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.trim()
	.url('must be an absolute URL such as https://example.com/hook')
	.refine((value) => /^https?:\/\//i.test(value), 'must start with http:// or https://');

/** Permission codes: a comma-separated text or a list, each a dotted code such as transfer.initiate. */
export const permissionCodesSchema = z
	.union([z.string(), z.array(z.string({ invalid_type_error: 'must list codes as text' }))], {
		invalid_type_error: 'must be a comma-separated list or an array of codes such as transfer.initiate',
	})
	.transform((value) => (typeof value === 'string' ? value.split(',') : value).map((code) => code.trim()).filter((code) => code !== ''))
	.pipe(
		z
			.array(z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/, 'must hold codes in dotted form such as transfer.initiate'))
			.min(1, 'must list at least one permission code (from Permission → Get Many)'),
	)
	.transform((codes) => [...new Set(codes)]);

/** A session token to verify: a JWT, three base64url parts separated by dots. */
export const sessionTokenSchema = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.trim()
	.regex(/^[\w-]+\.[\w-]+\.[\w-]*$/, 'must be a JWT (three parts separated by dots), as returned by the dashboard login');

export const matchKeySchema = oneOfSchema(valuesOf(MATCH_KEYS));
export const statementOutputSchema = oneOfSchema(valuesOf(STATEMENT_OUTPUTS));
export const expectedSourceSchema = oneOfSchema(valuesOf(EXPECTED_SOURCES));

/** Days after the collections' day in which their settlements are looked for: a whole number from 1 to 31. */
export const settlementDaysSchema = positiveIntegerSchema.pipe(z.number().max(31, 'must be at most 31'));
