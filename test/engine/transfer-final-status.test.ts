/** Transfer → Create with Wait for Final Status (polling transaction_status until the bank settles), and Transfer → Get Status. */
import { STATUS_POLLING } from '../../nodes/common/actions/transfer/exactlyOnce';
import { API } from './harness/bankFixture';
import { runNode } from './harness/runNode';
import { byCode, fromList, newReference, OPERATIONS, useTransferBank } from './harness/transfers';

const { fx, balance, transfersWith, createTransfer } = useTransferBank();

/** An inter-bank transfer to `beneficiary` that waits up to `maxWaitSeconds` for its final status. */
const waitingTransfer = (
	reference: string,
	beneficiary: { bank_code: string; account_number: string },
	amount: string,
	maxWaitSeconds: number,
	overrides: Record<string, unknown> = {},
) =>
	createTransfer(reference, {
		transferType: 'inter',
		bankCode: byCode(beneficiary.bank_code),
		beneficiaryAccountNumber: beneficiary.account_number,
		amount,
		options: { waitForFinalStatus: true, maxWaitSeconds },
		...overrides,
	});

describe('Transfer → Create', () => {
	test('an inter-bank transfer with Wait for Final Status returns the final successful record', async () => {
		STATUS_POLLING.firstIntervalMs = 100;
		const reference = newReference('inter');
		const [beneficiary] = fx.bank.seed.externalAccounts.filter((e) => !fx.bank.seed.failingBeneficiaries.includes(e.account_number));
		const statusBefore = fx.count('/transaction_status');
		const run = await waitingTransfer(reference, beneficiary, '250.00', 30, {
			bankCode: fromList(beneficiary.bank_code),
			additionalFields: { beneficiaryAccountName: beneficiary.account_name },
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, transfer_type: 'inter', status: 'successful' });
		// 300 ms settle delay, polls after 100 ms and 300 ms more: the second poll at the latest sees the final status
		// (the first, when a busy machine delays it past the settling), so one or two polls, never a third.
		const polls = fx.count('/transaction_status') - statusBefore;
		expect(polls).toBeGreaterThanOrEqual(1);
		expect(polls).toBeLessThanOrEqual(2);
		const [stored] = transfersWith(reference);
		expect(stored).toMatchObject({ bankCode: beneficiary.bank_code, beneficiaryAccountName: beneficiary.account_name });
	});

	test('a failing beneficiary reaches failed and the debit is reversed', async () => {
		STATUS_POLLING.firstIntervalMs = 100;
		const reference = newReference('fail');
		const failing = fx.bank.seed.externalAccounts.find((e) => fx.bank.seed.failingBeneficiaries.includes(e.account_number))!;
		const source = balance(OPERATIONS);
		const run = await waitingTransfer(reference, failing, '75.00', 30);
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
		const run = await waitingTransfer(reference, beneficiary, '6.00', 10);
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
		const run = await waitingTransfer(reference, beneficiary, '5.00', 1);
		const elapsed = Date.now() - started;
		await fx.bank.settlePending();
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'pending', outcome: 'pending' });
		// At least Max Wait (1 s), and far short of the bank's 60 s settling (a busy machine may add seconds).
		expect(elapsed).toBeGreaterThanOrEqual(1_000);
		expect(elapsed).toBeLessThan(30_000);
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
