import { sendingAccountResults } from '../../nodes/common/methods/sendingAccountSearch';

const account = (account_number: string, account_name: string, status: string, balance: string, extra: Record<string, unknown> = {}) => ({
	account_number,
	account_name,
	status,
	balance,
	...extra,
});

describe('Send money → Source Account list (sendingAccountResults)', () => {
	const accounts = [
		account('0823100003', 'Chiamaka Eze', 'active', '0.000000000'),
		account('0823000003', 'Savings', 'inactive', '1200000.000000000'),
		account('0823000004', 'Escrow', 'blocked', '750000.000000000'),
		account('0823000005', 'Old Collections', 'closed', '0.000000000'),
		account('0823100001', 'Adaeze Okonkwo', 'active', '15000.000000000'),
		account('0823100009', 'Abiola Overdrawn', 'active', '-25.100000000'),
		account('0823100002', 'Babatunde Adeyemi', 'active', '15000.000000000'),
		account('0823000001', 'Pool', 'active', '50000000.125000000'),
		account('0823100008', 'Held', 'active', '900.000000000', { is_available: false }),
	];

	test('offers active accounts only, the largest balance first, then by name; an overdrawn one after an empty one', () => {
		expect(sendingAccountResults(accounts).map((result) => result.name)).toEqual([
			'0823000001 · active · NGN 50,000,000.13 · Pool',
			'0823100001 · active · NGN 15,000.00 · Adaeze Okonkwo',
			'0823100002 · active · NGN 15,000.00 · Babatunde Adeyemi',
			'0823100003 · active · NGN 0.00 · Chiamaka Eze',
			'0823100009 · active · NGN -25.10 · Abiola Overdrawn',
		]);
	});

	test('the value is the account number; the search text matches number or name, in any case', () => {
		expect(sendingAccountResults(accounts, ' ADAEZE ')).toEqual([{ name: '0823100001 · active · NGN 15,000.00 · Adaeze Okonkwo', value: '0823100001' }]);
		expect(sendingAccountResults(accounts, '08231000').map((result) => result.value)).toEqual(['0823100001', '0823100002', '0823100003', '0823100009']);
		expect(sendingAccountResults(accounts, 'escrow')).toEqual([]);
	});

	test('records without a number, and answers that are not a list, give no entries', () => {
		expect(sendingAccountResults([null, { status: 'active', balance: '1.00' }, 'x'])).toEqual([]);
		expect(sendingAccountResults({ data: accounts })).toEqual([]);
	});
});
