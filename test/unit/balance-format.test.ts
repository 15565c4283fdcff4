import { formatBalance } from '../../nodes/common/methods/sendingAccountSearch';

describe('formatBalance (the Source Account list)', () => {
	test.each([
		['52345678.125000000', '52,345,678.13'],
		['52345678.124999999', '52,345,678.12'],
		['999.995000000', '1,000.00'],
		['0.000000000', '0.00'],
		['1500', '1,500.00'],
		['1500.5', '1,500.50'],
		['-25.10', '-25.10'],
		['12345678901234567890.01', '12,345,678,901,234,567,890.01'],
	])('%s -> %s', (balance, shown) => {
		expect(formatBalance(balance)).toBe(shown);
	});

	test('anything that is not a decimal is shown as given', () => {
		expect(formatBalance('n/a')).toBe('n/a');
		expect(formatBalance(undefined)).toBe('?');
	});
});
