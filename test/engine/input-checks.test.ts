import type { IDataObject } from 'n8n-workflow';

import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { runNode } from './harness/runNode';
import { createParams, nameEnquiryParams } from './harness/transfers';

/** Input checks that protect money: amounts that would lose cents, and Name Enquiry's safety switch. */
const fx = useBankFixture();

describe('Transfer → Create amounts', () => {
	const transfer = (items: IDataObject[]) =>
		runNode(fx.credentials, {
			parameters: createParams({ amount: '={{ $json.amount }}', narration: 'Amount check' }),
			credentials: API,
			items,
			continueOnFail: true,
		});

	test('numbers a sheet cannot carry exactly, long text and ambiguous commas fail their item, naming field and item; nothing is sent', async () => {
		const before = fx.bank.requests().length;
		const cases: Array<[string | number, RegExp]> = [
			// eslint-disable-next-line no-loss-of-precision -- the loss this check exists to catch
			[10000000000000000.01, /send the amount as text/],
			// eslint-disable-next-line no-loss-of-precision
			[9007199254740993, /send the amount as text/],
			['1'.repeat(40), /at most 13 digits before the decimal point/],
			['1,50', /comma that is not a thousands separator/],
			['1.500,00', /comma that is not a thousands separator/],
		];
		const run = await transfer(cases.map(([amount], i) => ({ amount, reference_number: `AMT-${Date.now()}-${i}` })));
		expect(run.json).toHaveLength(cases.length);
		cases.forEach(([, problem], i) => {
			const error = String(run.json[i].error);
			expect(error).toMatch(problem);
			expect(error).toMatch(/^Amount /);
			expect(error).toContain(`in item ${i + 1}`);
		});
		expect(fx.bank.requests().length).toBe(before);
	});

	test('thousands separators in the unambiguous form are read as such', async () => {
		const reference = `AMT-${Date.now()}-grouped`;
		const run = await transfer([{ amount: '1,500', reference_number: reference }]);
		expect(run.json[0]).toMatchObject({ reference_number: reference, amount: '1500.00' });
	});
});

describe('Transfer → Name Enquiry safety switch', () => {
	const enquiry = (options: Record<string, unknown>) =>
		runNode(fx.credentials, { parameters: nameEnquiryParams({ options }), credentials: DASHBOARD });

	test('with only Expected Name set, a different name stops the item (the switch shows on, so it is on)', async () => {
		const run = await enquiry({ expectedName: 'Someone Else' });
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(run.error!.message).toMatch(/Name mismatch for account 0823100001/);
		expect(run.json).toEqual([]);
	});

	test('turned off, a mismatch is reported; without Expected Name the switch changes nothing', async () => {
		const off = await enquiry({ expectedName: 'Someone Else', failIfNameDiffers: false });
		expect(off.json[0]).toMatchObject({ name_matches: false });
		const plain = await enquiry({});
		expect(plain.error).toBeUndefined();
		expect(plain.json[0]).toMatchObject({ account_name: 'Adaeze Okonkwo' });
	});
});
