import { differingFields, type TransferBody } from '../../nodes/common/actions/transfer/exactlyOnce';

const body: TransferBody = {
	reference_number: 'PAY-1',
	transfer_type: 'inter',
	amount: '1500.50',
	source_account_number: '0823000002',
	beneficiary_account_number: '1234567890',
	bank_code: '000014',
	narration: 'Salary November',
};

describe('a record found for the reference is this transfer only when every field the request set matches', () => {
	test('the sandbox\'s record (amount, type, remarks) of the same transfer matches, amounts compared as decimals', () => {
		expect(differingFields(body, { reference_number: 'PAY-1', amount: '1500.5', transfer_type: 'inter', remarks: 'Salary November', status: 'pending' })).toEqual([]);
	});

	test('a record that carries accounts and bank code is compared on them too', () => {
		const found = { amount: '1500.50', transfer_type: 'inter', source_account_number: '0823000002', beneficiary_account_number: '1234567891', bank_code: '000015', narration: 'Salary November' };
		expect(differingFields(body, found)).toEqual(['beneficiary_account_number', 'bank_code']);
		expect(differingFields(body, { ...found, beneficiary_account_number: '1234567890', bank_code: '000014', source_account_number: '0823000003' })).toEqual(['source_account_number']);
	});

	test('another narration, amount or type is another transfer; fields the record does not carry are not guessed', () => {
		expect(differingFields(body, { amount: '1500.50', transfer_type: 'inter', remarks: 'Refund' })).toEqual(['remarks']);
		expect(differingFields(body, { amount: '1500.51', transfer_type: 'intra' })).toEqual(['amount', 'transfer_type']);
		expect(differingFields(body, { amount: 'n/a' })).toEqual(['amount']);
		expect(differingFields(body, { amount: '1500.50', bank_code: null })).toEqual([]);
	});
});
