/**
 * Request validation with zod. Every failure becomes HTTP 400, response_code 99, and a message that names
 * each offending field, e.g. "account_number: must be exactly 10 digits". Unknown fields are refused too:
 * a node that misspells a filter must find out here, not get an unfiltered list.
 * Optional fields accept null as "absent".
 */
import { z, type ZodIssue, type ZodTypeAny } from 'zod';
import { ApiError } from './envelope';
import { AMOUNT_PATTERN } from '../data/money';
import { isCalendarDate, parseDateTime } from '../data/time';

const ARTICLE: Record<string, string> = {
	string: 'a string',
	number: 'a number',
	integer: 'an integer',
	boolean: 'a boolean (true or false)',
	array: 'an array',
	object: 'an object',
};

function issueMessages(issue: ZodIssue): string[] {
	const path = issue.path.join('.');
	const at = path || 'body';
	switch (issue.code) {
		case 'unrecognized_keys':
			return issue.keys.map((k) => `${path ? `${path}.` : ''}${k}: unknown field`);
		case 'invalid_type':
			if (issue.received === 'undefined') return [`${at}: is required`];
			if (issue.message && !issue.message.startsWith('Expected ') && issue.message !== 'Required') {
				return [`${at}: ${issue.message}`];
			}
			return [`${at}: must be ${ARTICLE[issue.expected] ?? issue.expected}`];
		case 'invalid_enum_value':
			return [`${at}: must be one of ${issue.options.join(', ')}`];
		default:
			return [`${at}: ${issue.message}`];
	}
}

/** Parses or throws ApiError 99 naming every invalid field. */
export function parse<S extends ZodTypeAny>(schema: S, body: unknown): z.infer<S> {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const messages = result.error.issues.flatMap(issueMessages);
	throw new ApiError('99', [...new Set(messages)].join('; '));
}

export const accountNumber = z.string().regex(/^\d{10}$/, { message: 'must be exactly 10 digits' });
export const identityNumber = z.string().regex(/^\d{11}$/, { message: 'must be exactly 11 digits' });
export const isoDate = z.string().refine(isCalendarDate, { message: 'must be a date in YYYY-MM-DD form' });
export const dateTime = z
	.string()
	.refine((s) => parseDateTime(s) !== undefined, { message: 'must be an ISO 8601 date-time' });
export const positiveInt = z.number().int().min(1, { message: 'must be at least 1' });
export const uuid = z.string().uuid({ message: 'must be a UUID' });
export const email = z.string().email({ message: 'must be a valid e-mail address' });
export const nonEmpty = (max = 255) =>
	z
		.string()
		.trim()
		.min(1, { message: 'must not be empty' })
		.max(max, { message: `must be at most ${max} characters` });

/** Amounts are decimal strings (contract); a JSON number is refused so a float never reaches the ledger. */
export const amount = z
	.string({ invalid_type_error: 'must be a decimal string such as "1500.00", not a number' })
	.regex(AMOUNT_PATTERN, { message: 'must be a decimal string with at most 2 decimals, such as "1500.00"' })
	.refine((s) => /[1-9]/.test(s), { message: 'must be greater than 0' });

export const httpUrl = z.string().refine(
	(s) => {
		try {
			const u = new URL(s);
			return u.protocol === 'http:' || u.protocol === 'https:';
		} catch {
			// new URL throws on anything that is not a URL; that is the answer.
			return false;
		}
	},
	{ message: 'must be an http(s) URL' },
);

export const accountTypeFilter = z.enum(['normal', 'virtual', 'current', 'savings']);
export const accountStatus = z.enum(['active', 'inactive', 'blocked', 'closed', 'pending']);
export const txStatus = z.enum(['success', 'pending', 'failed']);

/** The paging keys shared by transactions and settlements. */
export const pagingShape = {
	page: positiveInt.nullish(),
	page_size: positiveInt.nullish(),
	limit: positiveInt.nullish(),
	cursor_created_at: dateTime.nullish(),
	cursor_id: uuid.nullish(),
};

/** Keys only meaningful for cursor lists (no page/page_size in the contract). */
export const cursorShape = {
	limit: positiveInt.nullish(),
	cursor_created_at: dateTime.nullish(),
	cursor_id: uuid.nullish(),
};

/** cursor_id only makes sense beside cursor_created_at. */
export function checkCursor(v: { cursor_created_at?: string | null; cursor_id?: string | null }, ctx: z.RefinementCtx): void {
	if (v.cursor_id && !v.cursor_created_at) {
		ctx.addIssue({ code: 'custom', path: ['cursor_created_at'], message: 'is required when cursor_id is given' });
	}
}

/** end_date before start_date is a caller error; a single `date` makes the range irrelevant. */
export function checkRange(
	v: { date?: string | null; start_date?: string | null; end_date?: string | null },
	ctx: z.RefinementCtx,
): void {
	if (!v.date && v.start_date && v.end_date && v.end_date < v.start_date) {
		ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' });
	}
}

/** The date keys of list filters (`date` wins over the range; see checkRange). */
export const dateRangeShape = {
	start_date: isoDate.nullish(),
	end_date: isoDate.nullish(),
	date: isoDate.nullish(),
};

/** A list request's `filters` object holding dateRangeShape: strict, range-checked, null or absent for none. */
export function rangeFilters<T extends typeof dateRangeShape & z.ZodRawShape>(shape: T) {
	return z.object(shape).strict().superRefine(checkRange).nullish();
}

export const emptyBody = z.object({}).strict();

/** Control routes accept a JSON number too (curl convenience), but never one with a float artefact. */
export const looseAmount = z
	.union([z.string(), z.number()])
	.transform((v) => (typeof v === 'number' ? String(v) : v))
	.refine((s) => AMOUNT_PATTERN.test(s) && /[1-9]/.test(s), { message: 'must be a positive amount with at most 2 decimals, such as "1500.00"' });
