import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

/** Input rules from the bank's documented limits and the README's assumptions, checked before anything is sent to the bank. */

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

export const roleNameSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(255, 'must be at most 255 characters');

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

/** Account filters take these types; answers can also carry `pool`, which is not a filter value. */
export const accountTypeFilterSchema = oneOfSchema(['normal', 'virtual', 'current', 'savings']);
export const accountStatusSchema = oneOfSchema(['active', 'inactive', 'blocked', 'closed', 'pending']);
/** update_account_status accepts only these two. */
export const accountStatusChangeSchema = oneOfSchema(['active', 'inactive']);
export const transactionTypeSchema = oneOfSchema(['credit', 'debit']);
export const transactionStatusSchema = oneOfSchema(['success', 'pending', 'failed']);

export const accountNameSchema = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.trim()
	.min(1, 'must not be empty')
	.max(255, 'must be at most 255 characters');

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
export const filterTextSchema = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.trim()
	.min(1, 'must not be empty')
	.max(255, 'must be at most 255 characters');

export const booleanSchema = z.boolean({ invalid_type_error: 'must be true or false', required_error: 'is required' });

/** A whole number of at least 1 (a number field, or digits from an expression). */
export const positiveIntegerSchema = z.preprocess(
	(value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
	z
		.number({ invalid_type_error: 'must be a whole number of at least 1' })
		.int('must be a whole number')
		.min(1, 'must be at least 1'),
);

const PLAIN_AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;
const GROUPED_AMOUNT = /^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$/;

/**
 * Turns what a user typed (text, or a number from a sheet) into the bank's decimal string with two
 * decimals, by text operations only: a number is read through its shortest exact decimal form, so
 * 1234.5 → "1234.50", and a float artefact such as 0.30000000000000004 is refused, never rounded.
 */
export function toAmountString(value: unknown): { amount?: string; problem?: string } {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return { problem: 'must be a finite number' };
		text = String(value);
		if (/e/i.test(text)) return { problem: 'is too large or too small to be an amount' };
	} else if (typeof value === 'string') {
		text = value.trim();
		if (GROUPED_AMOUNT.test(text)) text = text.replace(/,/g, '');
	} else {
		return { problem: 'must be an amount such as 1500 or 1500.50' };
	}
	const match = PLAIN_AMOUNT.exec(text);
	if (!match) return { problem: 'must be a positive amount with at most 2 decimals, such as 1500 or 1500.50' };
	const units = match[1].replace(/^0+(?=\d)/, '');
	const cents = (match[2] ?? '').padEnd(2, '0');
	if (/^0+$/.test(units) && cents === '00') return { problem: 'must be greater than zero' };
	return { amount: `${units}.${cents}` };
}

export const amountSchema = z.unknown().transform((value, ctx) => {
	const { amount, problem } = toAmountString(value);
	if (amount === undefined) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem ?? 'is not a valid amount' });
		return z.NEVER;
	}
	return amount;
});

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
export const narrationSchema = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.trim()
	.min(1, 'must not be empty')
	.max(255, 'must be at most 255 characters');

/** First or last name of a team member. */
export const personNameSchema = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.trim()
	.min(1, 'must not be empty')
	.max(150, 'must be at most 150 characters');

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
