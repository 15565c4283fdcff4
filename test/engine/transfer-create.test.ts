import type { IDataObject } from 'n8n-workflow';

import { STATUS_POLLING } from '../../nodes/Baas/actions/transfer/exactlyOnce';
import { API } from './harness/bankFixture';
import { runNode } from './harness/runNode';
import { byCode, byNumber, CUSTOMER, fromList, INACTIVE, newReference, OPERATIONS, transferHelpers, useTransferBank } from './harness/transfers';

const fx = useTransferBank();
const { balance, transfersWith, createParams, createTransfer } = transferHelpers(fx);

describe('Transfer → Create', () => {
	test('an intra-bank transfer moves the money once and returns the status record; the reference defaults to the item\'s reference_number', async () => {
		const reference = newReference('intra');
		const source = balance(OPERATIONS);
		const target = balance(CUSTOMER);
		const run = await createTransfer(reference, { amount: '={{ 1500.5 }}' });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			expect.objectContaining({ reference_number: reference, amount: '1500.50', transfer_type: 'intra', status: 'successful', remarks: 'Engine test payout' }),
		]);
		expect(balance(OPERATIONS)).toBe(source - 150050n);
		expect(balance(CUSTOMER)).toBe(target + 150050n);
		const [stored] = transfersWith(reference);
		expect(stored.bankCode).toBe('090823');
	});

	test('a response lost after the bank recorded the transfer ends with exactly one transfer and the item succeeding', async () => {
		const reference = newReference('lost');
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		const statusBefore = fx.count('/transaction_status');
		fx.bank.addFault({ match: 'funds_transfer', drop: 'after', times: 1 });
		const run = await createTransfer(reference, { amount: '1234.56' });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ reference_number: reference, amount: '1234.56', status: 'successful' })]);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source - 123456n);
		// The dropped send was asked about, not repeated.
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(1);
		expect(fx.count('/transaction_status') - statusBefore).toBe(1);
		expect(fx.bank.requests().filter((r) => r.path.endsWith('/funds_transfer')).pop()).toMatchObject({ status: 0, response_code: '' });
	});

	test('a send dropped before the bank saw it is asked about (06) and then sent once more', async () => {
		const reference = newReference('dropped-before');
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		fx.bank.addFault({ match: 'funds_transfer', drop: 'before', times: 1 });
		const run = await createTransfer(reference, { amount: '10.00' });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'successful' });
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source - 1000n);
		const statusAnswers = fx.bank.requests().filter((r) => r.path.endsWith('/transaction_status')).map((r) => r.response_code);
		expect(statusAnswers.pop()).toBe('06');
	});

	test('a 5xx answer (provider down) is checked before one resend', async () => {
		const reference = newReference('5xx');
		const sendsBefore = fx.count('/funds_transfer');
		fx.bank.addFault({ match: 'funds_transfer', errorCode: '80', times: 1 });
		const run = await createTransfer(reference, { amount: '11.00' });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'successful' });
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
		expect(transfersWith(reference)).toHaveLength(1);
	});

	test('two unanswered sends with no record at the bank fail the item, saying it is safe to rerun with the same reference', async () => {
		const reference = newReference('unreachable');
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		fx.bank.addFault({ match: 'funds_transfer', drop: 'before', times: 2 });
		const run = await createTransfer(reference, { amount: '12.00' });
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(run.error!.message).toContain(`Transfer ${reference} was not made`);
		expect(run.error!.description).toContain(reference);
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
		expect(transfersWith(reference)).toHaveLength(0);
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('a first send that lands late (after the status check said 06) is found through the 26 of the resend, not paid twice', async () => {
		const reference = newReference('late');
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		// The send is recorded but its answer lost; the status check then (wrongly, as a slow bank might) says 06.
		fx.bank.addFault({ match: 'funds_transfer', drop: 'after', times: 1 });
		fx.bank.addFault({ match: 'transaction_status', errorCode: '06', times: 1 });
		const run = await createTransfer(reference, { amount: '13.00' });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, amount: '13.00', status: 'successful' });
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source - 1300n);
	});

	test('after a lost answer, a record of another transfer under the same reference is not taken for this one', async () => {
		const reference = newReference('taken');
		await createTransfer(reference, { amount: '14.00' });
		const source = balance(OPERATIONS);
		fx.bank.addFault({ match: 'funds_transfer', drop: 'before', times: 1 });
		const run = await createTransfer(reference, { amount: '15.00' });
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(run.error!.message).toContain(`Reference ${reference} already belongs to another transfer (intra, amount 14.00); this transfer of 15.00 was not made`);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('a reused reference is refused with 26, never re-sent or looked up, and nothing is debited twice', async () => {
		const reference = newReference('dup');
		const first = await createTransfer(reference, { amount: '20.00' });
		expect(first.error).toBeUndefined();
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		const statusBefore = fx.count('/transaction_status');
		const second = await createTransfer(reference, { amount: '20.00' }, true);
		expect(second.json).toEqual([expect.objectContaining({ response_code: '26' })]);
		expect(String(second.json[0].error)).toContain('[26]');
		expect(second.items[0].pairedItem).toEqual({ item: 0 });
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(1);
		expect(fx.count('/transaction_status') - statusBefore).toBe(0);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('insufficient funds is the bank\'s 51 and an inactive source its 57, each sent once', async () => {
		const sendsBefore = fx.count('/funds_transfer');
		const poor = await createTransfer(newReference('poor'), { amount: '999999999.00' });
		expect(poor.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '51' } });
		const inactive = await createTransfer(newReference('inactive'), { sourceAccountNumber: byNumber(INACTIVE), amount: '1.00' });
		expect(inactive.error).toMatchObject({ context: { responseCode: '57' } });
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
	});

	test('a refused sign-in is reported as such: no transfer, no status question', async () => {
		fx.credentials.add('api-wrong', 'baasApi', { ...fx.credentials.stored('api-1')!, clientSecret: 'wrong-secret-77', accessToken: '' });
		const sendsBefore = fx.count('/funds_transfer');
		const run = await runNode(fx.credentials, {
			parameters: createParams(),
			credentials: { baasApi: 'api-wrong' },
			items: [{ reference_number: newReference('signin') }],
		});
		expect(run.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '41' } });
		expect(run.error!.message).toMatch(/refused to sign in/);
		expect(run.error!.message).not.toMatch(/may or may not/);
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(0);
	});

	test('invalid input fails the item naming the field and sends nothing', async () => {
		const cases: Array<[Record<string, unknown>, RegExp, IDataObject?]> = [
			[{ amount: '10.005' }, /Amount must be a positive amount with at most 2 decimals/],
			[{ amount: '={{ 0.1 + 0.2 }}' }, /Amount must be a positive amount/],
			[{ amount: '-5' }, /Amount must be a positive amount/],
			[{ beneficiaryAccountNumber: '12345' }, /Beneficiary Account Number must be exactly 10 digits/],
			// Fixed values in a picker are checked by n8n before the run; values from the data are checked by the node.
			[{ sourceAccountNumber: byNumber('={{ "08230000" }}') }, /Source Account Number must be exactly 10 digits/],
			[{ transferType: 'inter', bankCode: byCode('={{ "" }}') }, /Bank Code must be a bank code/],
			[{ transferType: 'inter', bankCode: byCode('090823') }, /Bank Code is this bank's own code/],
			[{ beneficiaryAccountNumber: OPERATIONS }, /must differ from Source Account Number/],
			[{ narration: '   ' }, /Narration must not be empty/],
			[{}, /Reference Number must not be empty/, {}],
		];
		const before = fx.bank.requests().length;
		for (const [overrides, message, item] of cases) {
			const run = await runNode(fx.credentials, {
				parameters: createParams(overrides),
				credentials: API,
				items: [item ?? { reference_number: newReference('invalid') }],
			});
			expect(run.error).toMatchObject({ name: 'NodeOperationError' });
			expect(run.error!.message).toMatch(message);
			expect(run.error!.message).toMatch(/in item 1/);
		}
		expect(fx.bank.requests().length).toBe(before);
	});

	test('an inter-bank transfer with Wait for Final Status returns the final successful record', async () => {
		STATUS_POLLING.firstIntervalMs = 100;
		const reference = newReference('inter');
		const [beneficiary] = fx.bank.seed.externalAccounts.filter((e) => !fx.bank.seed.failingBeneficiaries.includes(e.account_number));
		const statusBefore = fx.count('/transaction_status');
		const started = Date.now();
		const run = await createTransfer(reference, {
			transferType: 'inter',
			bankCode: fromList(beneficiary.bank_code),
			beneficiaryAccountNumber: beneficiary.account_number,
			additionalFields: { beneficiaryAccountName: beneficiary.account_name },
			amount: '250.00',
			options: { waitForFinalStatus: true, maxWaitSeconds: 30 },
		});
		const elapsed = Date.now() - started;
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, transfer_type: 'inter', status: 'successful' });
		// 300 ms settle delay, polls after 100 ms and 300 ms more: the second poll sees the final status.
		expect(fx.count('/transaction_status') - statusBefore).toBe(2);
		expect(elapsed).toBeLessThan(5_000);
		const [stored] = transfersWith(reference);
		expect(stored).toMatchObject({ bankCode: beneficiary.bank_code, beneficiaryAccountName: beneficiary.account_name });
	});

	test('a failing beneficiary reaches failed and the debit is reversed', async () => {
		STATUS_POLLING.firstIntervalMs = 100;
		const reference = newReference('fail');
		const failing = fx.bank.seed.externalAccounts.find((e) => fx.bank.seed.failingBeneficiaries.includes(e.account_number))!;
		const source = balance(OPERATIONS);
		const run = await createTransfer(reference, {
			transferType: 'inter',
			bankCode: byCode(failing.bank_code),
			beneficiaryAccountNumber: failing.account_number,
			amount: '75.00',
			options: { waitForFinalStatus: true, maxWaitSeconds: 30 },
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'failed' });
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('Wait for Final Status does not poll a transfer that is already final', async () => {
		const statusBefore = fx.count('/transaction_status');
		const run = await createTransfer(newReference('final'), { amount: '2.00', options: { waitForFinalStatus: true } });
		expect(run.json[0]).toMatchObject({ status: 'successful' });
		expect(fx.count('/transaction_status') - statusBefore).toBe(0);
	});

	test('a failed status read while waiting says the transfer was accepted and must not be sent again', async () => {
		STATUS_POLLING.firstIntervalMs = 50;
		const reference = newReference('blind');
		const [beneficiary] = fx.bank.seed.externalAccounts.slice(7);
		fx.bank.addFault({ match: 'transaction_status', errorCode: '83', times: 1 });
		const run = await createTransfer(reference, {
			transferType: 'inter',
			bankCode: byCode(beneficiary.bank_code),
			beneficiaryAccountNumber: beneficiary.account_number,
			amount: '6.00',
			options: { waitForFinalStatus: true, maxWaitSeconds: 10 },
		});
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(run.error!.message).toContain(`Transfer ${reference} was accepted (pending), but reading its status failed`);
		expect(run.error!.description).toMatch(/Do not send it again/);
		expect(transfersWith(reference)).toHaveLength(1);
	});

	test('Wait for Final Status gives up after Max Wait and returns the pending record', async () => {
		STATUS_POLLING.firstIntervalMs = 100;
		fx.bank.configure({ interSettleDelayMs: 60_000 });
		const reference = newReference('slow');
		const [beneficiary] = fx.bank.seed.externalAccounts.slice(5);
		const started = Date.now();
		const run = await createTransfer(reference, {
			transferType: 'inter',
			bankCode: byCode(beneficiary.bank_code),
			beneficiaryAccountNumber: beneficiary.account_number,
			amount: '5.00',
			options: { waitForFinalStatus: true, maxWaitSeconds: 1 },
		});
		const elapsed = Date.now() - started;
		await fx.bank.settlePending();
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'pending' });
		expect(elapsed).toBeGreaterThanOrEqual(1_000);
		expect(elapsed).toBeLessThan(3_000);
	});

	test('many items run one at a time by default, each with its own reference, paired in order', async () => {
		const references = [newReference('batch'), newReference('batch'), newReference('batch')];
		const source = balance(OPERATIONS);
		fx.bank.addFault({ match: 'funds_transfer', latencyMs: 100 });
		const started = Date.now();
		const run = await runNode(fx.credentials, {
			parameters: createParams({ amount: '={{ $json.amount }}' }),
			credentials: API,
			items: references.map((reference_number, i) => ({ reference_number, amount: i + 1 })),
		});
		// In parallel the three 100 ms answers would take about 200 ms; one after another at least 300 ms.
		expect(Date.now() - started).toBeGreaterThanOrEqual(300);
		expect(run.error).toBeUndefined();
		expect(run.json.map((r) => r.reference_number)).toEqual(references);
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(balance(OPERATIONS)).toBe(source - 600n);
	});
});
