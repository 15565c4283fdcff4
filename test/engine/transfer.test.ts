import type { IDataObject } from 'n8n-workflow';

import { STATUS_POLLING } from '../../nodes/Baas/actions/transfer/exactlyOnce';
import { REQUEST_LIMITS } from '../../nodes/Baas/transport/request';
import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { runListSearch } from './harness/listSearch';
import { rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';

const fx = useBankFixture({ interSettleDelayMs: 300 }, (started) => {
	started.bank.configure({ interSettleDelayMs: 300 });
	STATUS_POLLING.firstIntervalMs = 5_000;
});

const OPERATIONS = '0823000002';
const POOL = '0823000001';
const INACTIVE = '0823000003';
const CUSTOMER = '0823100001';

const byCode = (value: string) => rl(value, 'id');
const fromList = (value: string) => rl(value, 'list');
const byNumber = (value: string) => rl(value, 'id');

let refSeq = 0;
const newReference = (label: string) => `T-${label}-${Date.now()}-${++refSeq}`;

function balance(accountNumber: string): bigint {
	return fx.bank.bank.accounts.get(accountNumber)!.balance;
}

function transfersWith(reference: string) {
	return [...fx.bank.bank.transfers.values()].filter((t) => t.reference === reference);
}

function createParams(overrides: Record<string, unknown> = {}) {
	return {
		authentication: 'apiClient',
		resource: 'transfer',
		operation: 'create',
		transferType: 'intra',
		amount: '1500.50',
		sourceAccountNumber: byNumber(OPERATIONS),
		beneficiaryAccountNumber: CUSTOMER,
		narration: 'Engine test payout',
		...overrides,
	};
}

async function createTransfer(reference: string, overrides: Record<string, unknown> = {}, continueOnFail: boolean | 'errorOutput' = false) {
	return await runNode(fx.credentials, {
		parameters: createParams(overrides),
		credentials: API,
		items: [{ reference_number: reference }],
		continueOnFail,
	});
}

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

	test('two unanswered sends with no record at the bank fail the item as outcome unknown, saying how to check and to keep the reference', async () => {
		const reference = newReference('unreachable');
		const source = balance(OPERATIONS);
		const sendsBefore = fx.count('/funds_transfer');
		fx.bank.addFault({ match: 'funds_transfer', drop: 'before', times: 2 });
		const run = await createTransfer(reference, { amount: '12.00' }, true);
		expect(run.json[0]).toMatchObject({ outcome: 'unknown' });
		expect(String(run.json[0].error)).toContain(`Transfer ${reference}: outcome unknown`);
		expect(String(run.json[0].error)).not.toMatch(/not made/);
		expect(String(run.json[0].description)).toContain(`Transfer → Get Status and reference ${reference}`);
		expect(String(run.json[0].description)).toMatch(/Never re-send it with a new reference/);
		expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
		expect(transfersWith(reference)).toHaveLength(0);
		expect(balance(OPERATIONS)).toBe(source);
	});

	describe('when the bank is slower than the request timeout', () => {
		const defaultTimeout = REQUEST_LIMITS.timeoutMs;
		afterEach(() => {
			REQUEST_LIMITS.timeoutMs = defaultTimeout;
		});

		test('two timed-out sends and a status of 06 are outcome unknown, never "not made": the bank lands the transfer later', async () => {
			REQUEST_LIMITS.timeoutMs = 250;
			const reference = newReference('slow-bank');
			const source = balance(OPERATIONS);
			// Each send waits 1 s at the bank, then is handled: both time out, the status reads in between say 06.
			fx.bank.addFault({ match: 'funds_transfer', latencyMs: 1_000, times: 2 });
			const run = await createTransfer(reference, { amount: '16.00' }, 'errorOutput');
			expect(run.items).toEqual([]);
			expect(run.errorItems).toHaveLength(1);
			const failed = run.errorItems[0].json;
			expect(String(failed.message)).toMatch(/^Outcome: unknown\. Check with Transfer → Get Status/);
			expect(String(failed.error)).toContain('outcome unknown');
			expect(String(failed.error)).not.toMatch(/not made/);
			expect(fx.bank.requests().filter((r) => r.path.endsWith('/transaction_status')).slice(-2).map((r) => r.response_code)).toEqual(['06', '06']);
			// The bank finishes the first send after the node gave up: one transfer, debited once.
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			expect(transfersWith(reference)).toHaveLength(1);
			expect(balance(OPERATIONS)).toBe(source - 1600n);
		});
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
		const run = await createTransfer(reference, { amount: '15.00' }, true);
		expect(run.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(run.json[0].error)).toContain(`Reference ${reference} already belongs to another transfer (amount 14.00); this transfer of 15.00 to ${CUSTOMER} was not made`);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source);
	});

	test('a found record with the same amount and type but another narration is another transfer, not this one', async () => {
		const reference = newReference('reused');
		await createTransfer(reference, { amount: '17.00', narration: 'Salary for Ada' });
		const source = balance(OPERATIONS);
		fx.bank.addFault({ match: 'funds_transfer', drop: 'before', times: 1 });
		const run = await createTransfer(reference, { amount: '17.00', narration: 'Refund for Bola', beneficiaryAccountNumber: POOL }, true);
		expect(run.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(run.json[0].error)).toContain(`Reference ${reference} already belongs to another transfer (remarks Salary for Ada)`);
		expect(run.json[0]).not.toHaveProperty('status');
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source);
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
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'failed', outcome: 'failed' });
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
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'pending', outcome: 'pending' });
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

describe('Transfer → Get Status', () => {
	const getStatus = (referenceNumber: string, continueOnFail = false) =>
		runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'transfer', operation: 'getStatus', referenceNumber },
			credentials: API,
			continueOnFail,
		});

	test('returns the transfer record by reference', async () => {
		const reference = newReference('status');
		await createTransfer(reference, { amount: '3.00' });
		const run = await getStatus(reference);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ reference_number: reference, amount: '3.00', status: 'successful' })]);
	});

	test('an unknown reference is the bank\'s 06, naming the reference', async () => {
		const run = await getStatus('NO-SUCH-REF-1', true);
		expect(run.json[0]).toMatchObject({ response_code: '06' });
		expect(String(run.json[0].error)).toContain('NO-SUCH-REF-1');
	});

	test('an invalid reference sends nothing', async () => {
		const before = fx.bank.requests().length;
		const run = await getStatus('has spaces!');
		expect(run.error!.message).toMatch(/Reference Number may contain only/);
		expect(fx.bank.requests().length).toBe(before);
	});
});

describe('Transfer → Name Enquiry', () => {
	const enquiry = (overrides: Record<string, unknown> = {}, items?: IDataObject[], continueOnFail = false) =>
		runNode(fx.credentials, {
			parameters: {
				authentication: 'dashboardUser',
				resource: 'transfer',
				operation: 'nameEnquiry',
				beneficiaryAccountNumber: CUSTOMER,
				bankCode: byCode('090823'),
				sourceAccountNumber: byNumber(POOL),
				...overrides,
			},
			credentials: DASHBOARD,
			items,
			continueOnFail,
		});

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
