/**
 * Transfer → Create when an answer is lost or late (actions/transfer/exactlyOnce.ts): the bank is asked about the
 * reference before anything is sent again, so each payment is made at most once.
 */
import type { FaultSpec } from '../../sandbox';
import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { CUSTOMER, newReference, OPERATIONS, POOL, useTransferBank } from './harness/transfers';

const { fx, balance, transfersWith, createTransfer } = useTransferBank();

/** Sends a transfer with `faults` injected and expects it made exactly once, after exactly two sends. */
async function expectSentTwiceMadeOnce(reference: string, amount: string, ...faults: FaultSpec[]) {
	const sendsBefore = fx.count('/funds_transfer');
	faults.forEach((fault) => fx.bank.addFault(fault));
	const run = await createTransfer(reference, { amount });
	expect(run.error).toBeUndefined();
	expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'successful' });
	expect(fx.count('/funds_transfer') - sendsBefore).toBe(2);
	expect(transfersWith(reference)).toHaveLength(1);
	return run;
}

describe('Transfer → Create', () => {
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
		await expectSentTwiceMadeOnce(reference, '10.00', { match: 'funds_transfer', drop: 'before', times: 1 });
		expect(balance(OPERATIONS)).toBe(source - 1000n);
		const statusAnswers = fx.bank.requests().filter((r) => r.path.endsWith('/transaction_status')).map((r) => r.response_code);
		expect(statusAnswers.pop()).toBe('06');
	});

	test('a 5xx answer (provider down) is checked before one resend', async () => {
		await expectSentTwiceMadeOnce(newReference('5xx'), '11.00', { match: 'funds_transfer', errorCode: '80', times: 1 });
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
		// The advice is in the message itself (an AI agent reads nothing else), and in the description.
		expect(String(run.json[0].error)).toContain(`Keep reference ${reference}: check it with Transfer → Get Status`);
		expect(String(run.json[0].error)).toMatch(/Never send this payment again under a new reference/);
		expect(String(run.json[0].description)).toMatch(/Never send this payment again under a new reference/);
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
			expect(String(failed.message)).toMatch(/^Outcome: unknown\. Keep reference \S+: check it with Transfer → Get Status/);
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
		// The send is recorded but its answer lost; the status check then (wrongly, as a slow bank might) says 06.
		const run = await expectSentTwiceMadeOnce(
			reference,
			'13.00',
			{ match: 'funds_transfer', drop: 'after', times: 1 },
			{ match: 'transaction_status', errorCode: '06', times: 1 },
		);
		expect(run.json[0]).toMatchObject({ amount: '13.00' });
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
});
