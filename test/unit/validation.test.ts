import { accountNumberSchema, dateSchema, identityNumberSchema, toAmountString } from '../../nodes/Baas/validation';

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
		['99999999999999999999.99', '99999999999999999999.99'],
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
