import { z } from 'zod';

/** Amounts as the bank writes them (decimal strings, 2 decimals) and as kobo (BigInt): never a float on money. */

const PLAIN_AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;
/** Commas only as thousands separators in groups of three, with a point for the decimals: 1,500 or 1,500.00. */
const GROUPED_AMOUNT = /^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$/;

/**
 * At most 13 digits before the point (9,999,999,999,999.99 NGN, far above any transfer limit). With 2 decimals
 * that is 15 significant digits: what a spreadsheet cell and a JavaScript number hold exactly, so an amount
 * that passes here survives a sheet or a Code node unchanged, and in kobo it stays below 2^53.
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 13;

const AS_TEXT_HINT = 'send the amount as text (for example "1500.50"; in a sheet, format the column as plain text)';

/** Why a number cannot be trusted to carry an exact amount, or undefined when its decimal text is exact. */
function inexactNumberProblem(value: number, text: string): string | undefined {
	if (!Number.isFinite(value)) return 'must be a finite number';
	const significant = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '');
	// Beyond 15 significant digits (or in exponent form) a number may already differ from what was typed:
	// 10000000000000000.01 arrives as 10000000000000000, 9007199254740993 as 9007199254740992.
	if (/e/i.test(text) || significant.length > MAX_AMOUNT_INTEGER_DIGITS + 2) {
		return `is a number too long to be exact (at most ${MAX_AMOUNT_INTEGER_DIGITS + 2} digits); ${AS_TEXT_HINT}`;
	}
	return undefined;
}

/**
 * Turns what a user typed (text, or a number from a sheet) into the bank's decimal string with two
 * decimals, by text operations only: a number is read through its shortest exact decimal form, so
 * 1234.5 → "1234.50"; a number that may have lost digits (float artefacts such as 0.30000000000000004, or
 * beyond 15 digits) is refused, never rounded.
 */
export function toAmountString(value: unknown): { amount?: string; problem?: string } {
	let text: string;
	if (typeof value === 'number') {
		text = String(value);
		const problem = inexactNumberProblem(value, text);
		if (problem) return { problem };
	} else if (typeof value === 'string') {
		text = value.trim();
		if (GROUPED_AMOUNT.test(text)) text = text.replace(/,/g, '');
		else if (text.includes(',')) {
			return { problem: 'uses a comma that is not a thousands separator: write 1500.50, or 1,500.50 with commas between groups of three digits and a point before the decimals' };
		}
	} else {
		return { problem: 'must be an amount such as 1500 or 1500.50' };
	}
	const match = PLAIN_AMOUNT.exec(text);
	if (!match) return { problem: 'must be a positive amount with at most 2 decimals, such as 1500 or 1500.50' };
	const units = match[1].replace(/^0+(?=\d)/, '');
	const cents = (match[2] ?? '').padEnd(2, '0');
	if (units.length > MAX_AMOUNT_INTEGER_DIGITS) {
		return { problem: `must have at most ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point` };
	}
	if (/^0+$/.test(units) && cents === '00') return { problem: 'must be greater than zero' };
	return { amount: `${units}.${cents}` };
}

/**
 * Compares two amounts in the bank's form (digits, a point, exactly two decimals, as toAmountString gives them)
 * as whole numbers of kobo, never through a float: negative when a < b, 0 when equal, positive when a > b.
 */
export function compareAmounts(a: string, b: string): number {
	const kobo = (amount: string) => BigInt(amount.replace('.', ''));
	const difference = kobo(a) - kobo(b);
	return difference === 0n ? 0 : difference < 0n ? -1 : 1;
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
 * An amount a reconciliation compares, in kobo (BigInt, never a float), read as toAmountString reads it, except
 * that text may carry up to 30 digits before the point: a total beyond 2^53 kobo stays exact as text (a number
 * that large has already lost digits, and is refused as toAmountString refuses it).
 */
export function toKobo(value: unknown): { kobo?: bigint; problem?: string } {
	// The bank's own form ("1500.00"), read without the general path: a day holds tens of thousands of amounts.
	if (typeof value === 'string' && /^\d{1,13}\.\d\d$/.test(value) && /[1-9]/.test(value)) return { kobo: BigInt(value.replace('.', '')) };
	const text = typeof value === 'string' ? value.trim() : '';
	const match = PLAIN_AMOUNT.exec(GROUPED_AMOUNT.test(text) ? text.replace(/,/g, '') : text);
	if (match && match[1].replace(/^0+/, '').length > MAX_AMOUNT_INTEGER_DIGITS) {
		if (match[1].length > 30) return { problem: 'must have at most 30 digits before the decimal point' };
		return { kobo: BigInt(`${match[1]}${(match[2] ?? '').padEnd(2, '0')}`) };
	}
	const { amount, problem } = toAmountString(value);
	return amount === undefined ? { problem } : { kobo: BigInt(amount.replace('.', '')) };
}

/** A tolerance in NGN, returned in kobo: 0 or empty for exact matches, else an amount as toKobo reads it. */
export const toleranceSchema = z.unknown().transform((value, ctx) => {
	if (value === '' || value === undefined || value === 0 || (typeof value === 'string' && /^\s*0*(\.0{0,2})?\s*$/.test(value))) return 0n;
	const { kobo, problem } = toKobo(value);
	if (kobo === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${problem ?? 'is not a valid amount'} (0 for exact matches)` });
	return kobo ?? z.NEVER;
});

/** Kobo (BigInt) back to text: the bank's decimal form for fields, and a grouped form for sentences people read. */

/** 150050n → "1500.50", -50000n → "-500.00": two decimals, signed, never through a float. */
export function koboToAmount(kobo: bigint): string {
	const sign = kobo < 0n ? '-' : '';
	const digits = (kobo < 0n ? -kobo : kobo).toString().padStart(3, '0');
	return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** 150050n → "NGN 1,500.50" (the magnitude; the sentence around it says short or more). */
export function koboForPeople(kobo: bigint): string {
	const [units, cents] = koboToAmount(kobo < 0n ? -kobo : kobo).split('.');
	return `NGN ${units.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}
