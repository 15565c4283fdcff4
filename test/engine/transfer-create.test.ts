/** Transfer → Create as it goes when every answer arrives: a transfer made once, the bank's refusals, bad input, batches. */
import type { IDataObject } from 'n8n-workflow';

import { API, DASHBOARD } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { runNode } from './harness/runNode';
import { byCode, byNumber, createParams, CUSTOMER, INACTIVE, newReference, OPERATIONS, useTransferBank } from './harness/transfers';

const { fx, balance, transfersWith, createTransfer } = useTransferBank();

describe('Transfer → Create', () => {
	test('an intra-bank transfer moves the money once and returns the status record; the reference defaults to the item\'s reference_number', async () => {
		const reference = newReference('intra');
		const source = balance(OPERATIONS);
		const target = balance(CUSTOMER);
		const run = await createTransfer(reference, { amount: '={{ 1500.5 }}' });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			expect.objectContaining({ reference_number: reference, amount: '1500.50', transfer_type: 'intra', status: 'successful', remarks: 'Engine test payout', outcome: 'successful' }),
		]);
		expect(balance(OPERATIONS)).toBe(source - 150050n);
		expect(balance(CUSTOMER)).toBe(target + 150050n);
		const [stored] = transfersWith(reference);
		expect(stored.bankCode).toBe('090823');
	});

	test('the same payment run again is the bank\'s 26: the transfer holding the reference is returned, nothing is sent or debited twice', async () => {
		const reference = newReference('dup');
		const first = await createTransfer(reference, { amount: '20.00' });
		expect(first.error).toBeUndefined();
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		const statusBefore = fx.count('/transaction_status');
		const second = await createTransfer(reference, { amount: '20.00' }, true);
		expect(second.json).toEqual([expect.objectContaining({ reference_number: reference, amount: '20.00', status: 'successful', outcome: 'successful' })]);
		expect(second.items[0].pairedItem).toEqual({ item: 0 });
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(1);
		expect(fx.count('/transaction_status') - statusBefore).toBe(1);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('a reference used by another payment is refused: 26, the differing fields named, outcome refused', async () => {
		const reference = newReference('dup-other');
		await createTransfer(reference, { amount: '21.00' });
		const source = balance(OPERATIONS);
		const second = await createTransfer(reference, { amount: '22.00' }, true);
		expect(second.json).toEqual([expect.objectContaining({ outcome: 'refused' })]);
		expect(String(second.json[0].error)).toContain(`Reference ${reference} already belongs to another transfer (amount 21.00); this transfer of 22.00`);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('insufficient funds is the bank\'s 51 and an inactive source its 57, each sent once', async () => {
		const sendsBefore = fx.count('/funds_transfer');
		const poor = await createTransfer(newReference('poor'), { amount: '999999999.00' });
		expect(poor.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '51' } });
		const inactive = await createTransfer(newReference('inactive'), { sourceAccountNumber: byNumber(INACTIVE), amount: '1.00' });
		expect(inactive.error).toMatchObject({ context: { responseCode: '57' } });
		// In the error output only { error, message } pass: the outcome leads the message.
		const routed = await createTransfer(newReference('poor'), { amount: '999999999.00' }, 'errorOutput');
		expect(String(routed.errorItems[0].json.message)).toMatch(/^Outcome: refused\. The source account does not hold enough funds/);
		expect(String(routed.errorItems[0].json.error)).toContain('[51]');
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(3);
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
			[{ amount: '={{ 0.1 + 0.2 }}' }, /Amount is a number too long to be exact/],
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

	test('Create with the dashboard credential (which cannot send money) is refused before any request, naming the Authentication to choose', async () => {
		await expectRejectedWithoutRequest(
			fx,
			{ parameters: { ...createParams(), authentication: 'dashboardUser' }, credentials: DASHBOARD, items: [{ reference_number: newReference('dash') }] },
			/Transfer → Create is offered only with Authentication: API Client/,
		);
	});
});
