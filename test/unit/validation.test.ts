import { accountNumberSchema, compareAmounts, dateSchema, identityNumberSchema, MAX_AMOUNT_INTEGER_DIGITS, toAmountString } from '../../nodes/common/validation';

describe('toAmountString', () => {
	test.each([
		['1500', '1500.00'],
		['1500.5', '1500.50'],
		['0.01', '0.01'],
		['007.10', '7.10'],
		['1,250,000.75', '1250000.75'],
		[1234.5, '1234.50'],
		[0.1, '0.10'],
		[100, '100.00'],
		['  42.00 ', '42.00'],
		['9999999999999.99', '9999999999999.99'],
		['1,500', '1500.00'],
		['1,500.00', '1500.00'],
		[9999999999999.99, '9999999999999.99'],
	])('%p → %p', (input, expected) => {
		expect(toAmountString(input)).toEqual({ amount: expected });
	});

	test.each([
		['0'],
		['0.00'],
		['-5'],
		['1.234'],
		['1e3'],
		['12,34'],
		['1,50'],
		['1.500,00'],
		['1,5000'],
		['15,00.00'],
		['1 500'],
		['99999999999999999999.99'],
		['0'.repeat(5) + '1'.repeat(40)],
		['abc'],
		[''],
		[0.1 + 0.2],
		[1e21],
		[Number.NaN],
		[null],
		[true],
	])('refuses %p', (input) => {
		const result = toAmountString(input);
		expect(result.amount).toBeUndefined();
		expect(result.problem).toEqual(expect.any(String));
	});
});

describe('amounts that a number cannot carry exactly', () => {
	test.each([
		// eslint-disable-next-line no-loss-of-precision -- the very loss this test is about
		[10000000000000000.01],
		// eslint-disable-next-line no-loss-of-precision
		[9007199254740993],
		[0.1 + 0.2],
		[1e21],
	])('refuses the number %p and says to send it as text', (input) => {
		const result = toAmountString(input);
		expect(result.amount).toBeUndefined();
		expect(result.problem).toMatch(/send the amount as text/);
	});

	test(`text may carry up to ${MAX_AMOUNT_INTEGER_DIGITS} digits before the point, no more`, () => {
		expect(toAmountString('1'.repeat(MAX_AMOUNT_INTEGER_DIGITS))).toEqual({ amount: `${'1'.repeat(MAX_AMOUNT_INTEGER_DIGITS)}.00` });
		expect(toAmountString('1'.repeat(MAX_AMOUNT_INTEGER_DIGITS + 1)).problem).toMatch(/at most 13 digits before the decimal point/);
	});

	test('a comma that is not a thousands separator is named as the problem', () => {
		expect(toAmountString('1,50').problem).toMatch(/comma/);
		expect(toAmountString('1.500,00').problem).toMatch(/comma/);
	});
});

describe('field schemas', () => {
	test('account numbers are exactly 10 digits', () => {
		expect(accountNumberSchema.safeParse('0123456789').success).toBe(true);
		expect(accountNumberSchema.safeParse('123456789').success).toBe(false);
		expect(accountNumberSchema.safeParse('01234567890').success).toBe(false);
		expect(accountNumberSchema.safeParse('01234x6789').success).toBe(false);
	});

	test('BVN/NIN are exactly 11 digits', () => {
		expect(identityNumberSchema.safeParse('12345678901').success).toBe(true);
		expect(identityNumberSchema.safeParse('1234567890').success).toBe(false);
	});

	test('dates must exist', () => {
		expect(dateSchema.safeParse('2026-02-28').success).toBe(true);
		expect(dateSchema.safeParse('2026-02-30').success).toBe(false);
		expect(dateSchema.safeParse('2026-2-3').success).toBe(false);
	});
});

describe('compareAmounts (Send money\'s Maximum Amount)', () => {
	test('compares in whole kobo, never through a float', () => {
		expect(compareAmounts('2500.01', '2500.00')).toBe(1);
		expect(compareAmounts('2500.00', '2500.00')).toBe(0);
		expect(compareAmounts('999.99', '1000.00')).toBe(-1);
		// The largest amount the node takes, one kobo apart.
		expect(compareAmounts('9999999999999.99', '9999999999999.98')).toBe(1);
	});
});
