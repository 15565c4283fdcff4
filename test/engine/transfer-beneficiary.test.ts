/** Checking whom a transfer goes to: Transfer → Name Enquiry (the account name at a bank) and the bank picker. */
import type { IDataObject } from 'n8n-workflow';

import { API, DASHBOARD } from './harness/bankFixture';
import { runListSearch } from './harness/listSearch';
import { runNode } from './harness/runNode';
import { byCode, CUSTOMER, nameEnquiryParams, newReference, useTransferBank } from './harness/transfers';

const { fx, createTransfer } = useTransferBank();

describe('Transfer → Name Enquiry', () => {
	const enquiry = (overrides: Record<string, unknown> = {}, items?: IDataObject[], continueOnFail = false) =>
		runNode(fx.credentials, { parameters: nameEnquiryParams(overrides), credentials: DASHBOARD, items, continueOnFail });

	test('returns the account name at this bank and at another bank', async () => {
		const own = await enquiry();
		expect(own.error).toBeUndefined();
		expect(own.json).toEqual([{ account_name: 'Adaeze Okonkwo', account_number: CUSTOMER, bank_name: 'Sandbox Microfinance Bank' }]);
		const external = fx.bank.seed.externalAccounts[4];
		const other = await enquiry({ beneficiaryAccountNumber: external.account_number, bankCode: byCode(external.bank_code) });
		expect(other.json[0]).toMatchObject({ account_name: external.account_name, account_number: external.account_number });
	});

	test('a matching expected name passes whatever its case and spacing', async () => {
		const run = await enquiry({ options: { expectedName: '  adaeze   OKONKWO ', failIfNameDiffers: true } });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ account_name: 'Adaeze Okonkwo', name_matches: true });
	});

	test('a different name stops the item, naming both names, while the other items go on', async () => {
		const run = await enquiry(
			{ options: { expectedName: '={{ $json.name }}', failIfNameDiffers: true } },
			[{ name: 'Adaeze Okonkwo' }, { name: 'Adaeze Okafor' }],
			true,
		);
		expect(run.json[0]).toMatchObject({ name_matches: true });
		expect(String(run.json[1].error)).toMatch(/Name mismatch for account 0823100001: the bank has "Adaeze Okonkwo", expected "Adaeze Okafor" \(item 2\)/);
		expect(run.items[1].pairedItem).toEqual({ item: 1 });

		const stopped = await enquiry({ options: { expectedName: 'Someone Else', failIfNameDiffers: true } });
		expect(stopped.error).toMatchObject({ name: 'NodeOperationError' });
		expect(stopped.json).toEqual([]);
	});

	test('without Fail if Name Differs a mismatch is reported, not fatal', async () => {
		const run = await enquiry({ options: { expectedName: 'Someone Else', failIfNameDiffers: false } });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ expected_name: 'Someone Else', name_matches: false });
	});

	test('an account the other bank does not know is its 83', async () => {
		const run = await enquiry({ beneficiaryAccountNumber: '5555555555', bankCode: byCode('000014') });
		expect(run.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '83' } });
	});

	test('invalid input sends nothing', async () => {
		const before = fx.bank.requests().length;
		for (const [overrides, message] of [
			[{ beneficiaryAccountNumber: '12' }, /Beneficiary Account Number must be exactly 10 digits/],
			[{ bankCode: byCode('={{ "AB" }}') }, /Bank Code must be a bank code of 3 to 6 digits/],
			[{ options: { failIfNameDiffers: true } }, /Expected Name must be set/],
		] as Array<[Record<string, unknown>, RegExp]>) {
			const run = await enquiry(overrides);
			expect(run.error!.message).toMatch(message);
		}
		expect(fx.bank.requests().length).toBe(before);
	});
});

describe('bank picker', () => {
	const apiCall = { parameters: { authentication: 'apiClient', resource: 'transfer', operation: 'create', transferType: 'inter' }, credentials: API };

	// Answered bank lists (a request refused for an expired token is not one).
	const listed = () => fx.bank.requests().filter((r) => r.path.endsWith('/fetch_banks') && r.status === 200).length;

	test('lists the banks once and serves them from the cache for 24 hours', async () => {
		const before = listed();
		const { results: options } = await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks' });
		expect(options).toContainEqual({ name: 'Sandbox Microfinance Bank (090823)', value: '090823' });
		expect(options.length).toBe(20);
		const names = options.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		const search = await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks', filter: 'access' });
		expect(search.results).toEqual([{ name: 'Access Bank (000014)', value: '000014' }]);
		const byDigits = await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks', filter: '090405' });
		expect(byDigits.results.map((r) => r.value)).toEqual(['090405']);
		expect(listed() - before).toBe(1);

		// The sandbox runs in this process, so the jump also expires the token: n8n refreshes it once.
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 24 * 60 * 60 * 1000 + 1);
		try {
			await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks' });
		} finally {
			clock.mockRestore();
		}
		expect(listed() - before).toBe(2);
	});

	test('a bank code the bank rejects makes the next list fresh (the contract\'s advice)', async () => {
		await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks' });
		const before = listed();
		await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks' });
		expect(listed() - before).toBe(0);
		const rejected = await createTransfer(newReference('badcode'), { transferType: 'inter', bankCode: byCode('123456'), beneficiaryAccountNumber: '1234567890' });
		expect(rejected.error).toMatchObject({ context: { responseCode: '99' } });
		expect(rejected.error!.message).toMatch(/bank_code/);
		await runListSearch(fx.credentials, { ...apiCall, method: 'searchBanks' });
		expect(listed() - before).toBe(1);
	});

	test('with a dashboard credential the list says to switch to By Code, and sends nothing', async () => {
		const before = fx.bank.requests().length;
		await expect(
			runListSearch(fx.credentials, {
				parameters: { authentication: 'dashboardUser', resource: 'transfer', operation: 'nameEnquiry' },
				credentials: DASHBOARD,
				method: 'searchBanks',
			}),
		).rejects.toThrow(/needs the API Client authentication.*"By Code"/);
		expect(fx.bank.requests().length).toBe(before);
	});
});
