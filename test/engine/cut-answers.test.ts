/**
 * Answers that stop halfway: the headers and half the body arrive, then the connection drops or goes quiet. The
 * node must treat them as no answer at all: a read is asked again, a transfer is asked about, never sent twice.
 */
import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { api } from './harness/accounts';
import { rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';
import { newReference, OPERATIONS, POOL, useTransferBank } from './harness/transfers';

const { fx, balance, transfersWith, createTransfer } = useTransferBank();
const readBalance = () => runNode(fx.credentials, { ...api({ operation: 'getBalance', accountNumber: rl(POOL, 'id') }), continueOnFail: true });
const balanceAnswers = () => fx.bank.requests().filter((r) => r.path.endsWith('/get_account_balance')).map((r) => r.status);

describe('an answer cut short', () => {
	const defaultTimeout = REQUEST_LIMITS.timeoutMs;
	afterEach(() => {
		REQUEST_LIMITS.timeoutMs = defaultTimeout;
		fx.bank.reset();
	});

	test('a read whose answer drops halfway is asked again and succeeds', async () => {
		fx.bank.addFault({ match: 'get_account_balance', drop: 'midAnswer', times: 1 });
		const run = await readBalance();
		expect(run.json).toEqual([expect.objectContaining({ account_number: POOL, status: 'active' })]);
		expect(balanceAnswers()).toEqual([0, 200]);
	});

	test('a read whose answer goes quiet halfway gives up at the request time limit and is asked again', async () => {
		REQUEST_LIMITS.timeoutMs = 400;
		fx.bank.addFault({ match: 'get_account_balance', stallAnswer: true, times: 1 });
		const started = Date.now();
		const run = await readBalance();
		expect(run.json).toEqual([expect.objectContaining({ account_number: POOL, status: 'active' })]);
		expect(balanceAnswers()).toEqual([0, 200]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
	});

	test('a read cut short every time fails its item as no answer, after 4 attempts, saying what happened', async () => {
		REQUEST_LIMITS.timeoutMs = 300;
		fx.bank.addFault({ match: 'get_account_balance', drop: 'midAnswer' });
		const run = await readBalance();
		expect(run.json).toHaveLength(1);
		expect(run.json[0].error).toBe('Could not get an answer from the bank: the connection ended while the answer was arriving (ERR_BAD_RESPONSE: stream has been aborted)');
		expect(balanceAnswers()).toEqual([0, 0, 0, 0]);
	});

	test('a transfer whose answer drops halfway is asked about, not sent again: made exactly once', async () => {
		const reference = newReference('cut');
		const source = balance(OPERATIONS);
		fx.bank.addFault({ match: 'funds_transfer', drop: 'midAnswer', times: 1 });
		// The status check is a read: its first answer is cut too, and it is asked again.
		fx.bank.addFault({ match: 'transaction_status', drop: 'midAnswer', times: 1 });
		const run = await createTransfer(reference, { amount: '42.10' });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ reference_number: reference, amount: '42.10', status: 'successful' })]);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source - 4210n);
		expect(fx.count('/funds_transfer')).toBe(1);
	});
});
