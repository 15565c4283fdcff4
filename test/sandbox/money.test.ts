import { AMOUNT_PATTERN, formatAmount, formatBalance, parseAmount } from '../../sandbox/data/money';
import { isCalendarDate, isoNoZone, parseDateTime } from '../../sandbox/data/time';
import { Prng } from '../../sandbox/data/prng';

describe('money in BigInt kobo', () => {
	it.each([
		['1500', 150000n],
		['1500.5', 150050n],
		['1500.05', 150005n],
		['0.01', 1n],
		['999999999999999.99', 99999999999999999n],
	])('parses %s', (text, kobo) => {
		expect(AMOUNT_PATTERN.test(text)).toBe(true);
		expect(parseAmount(text)).toBe(kobo);
	});

	it.each(['1.234', '-1.00', '1e3', '01.00', '1,000.00', '', '.5', '1.'])('rejects %s', (text) => {
		expect(AMOUNT_PATTERN.test(text)).toBe(false);
	});

	it('formats amounts with 2 and balances with 9 decimals', () => {
		expect(formatAmount(150050n)).toBe('1500.50');
		expect(formatAmount(5n)).toBe('0.05');
		expect(formatAmount(-5n)).toBe('-0.05');
		expect(formatBalance(150000n)).toBe('1500.000000000');
		expect(formatBalance(0n)).toBe('0.000000000');
	});

	it('never goes through a float: 0.1 + 0.2 in kobo is exact', () => {
		expect(formatAmount(parseAmount('0.1') + parseAmount('0.2'))).toBe('0.30');
	});
});

describe('time helpers', () => {
	it('checks calendar dates', () => {
		expect(isCalendarDate('2024-02-29')).toBe(true);
		expect(isCalendarDate('2025-02-29')).toBe(false);
		expect(isCalendarDate('2025-1-01')).toBe(false);
	});
	it('parses date-times with or without zone', () => {
		expect(parseDateTime('2025-12-01T10:00:00Z')).toBe(Date.UTC(2025, 11, 1, 10));
		expect(parseDateTime('2025-12-01T10:00:00')).toBe(Date.UTC(2025, 11, 1, 10));
		expect(parseDateTime('2025-12-01T11:00:00.000+01:00')).toBe(Date.UTC(2025, 11, 1, 10));
		expect(parseDateTime('2025-12-01')).toBeUndefined();
	});
	it('validate_token format has no zone', () => {
		expect(isoNoZone(Date.UTC(2026, 10, 23, 14))).toBe('2026-11-23T14:00:00');
	});
});

describe('prng', () => {
	it('is deterministic and makes RFC 4122 shaped ids', () => {
		const [a, b] = [new Prng(1), new Prng(1)];
		const ids = [a.uuid(), a.uuid()];
		expect([b.uuid(), b.uuid()]).toEqual(ids);
		expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	});
});
