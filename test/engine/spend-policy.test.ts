/**
 * Send money's spend policy (docs/safety.md, "Spend policy"), run through n8n-core's engine against the sandbox bank,
 * as a plain node and as an AI tool after a person's approval: every rule refuses before any request that moves
 * money, and its message alone says why and what to do.
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetDailyLedgers } from '../../nodes/common/actions/transfer/dailyLimit';
import { forgetUnknownOutcomes } from '../../nodes/common/actions/transfer/unknownOutcomes';
import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { API, DASHBOARD } from './harness/bankFixture';
import { runNode } from './harness/runNode';
import { runAsTool } from './harness/toolRun';
import { createParams, CUSTOMER, CUSTOMER_NAME, newReference, OPERATIONS, toolSendMoney, useTransferBank } from './harness/transfers';

const { fx, transfersWith } = useTransferBank();
const BOTH = { ...API, ...DASHBOARD };

beforeEach(() => {
	forgetDailyLedgers();
	forgetUnknownOutcomes();
});

const sendMoney = toolSendMoney;

const payment = (reference: string, amount = '2500.00'): IDataObject => ({ reference, amount, beneficiary_account: CUSTOMER, beneficiary_name: CUSTOMER_NAME });

const asTool = async (parameters: IDataObject, input: IDataObject) =>
	(await runAsTool(fx.credentials, { way: 'review', credentials: BOTH, parameters, input })).answers[0].answer as IDataObject;

async function requestsDuring<T>(action: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
	const before = fx.bank.requests().length;
	const result = await action();
	return { result, requests: fx.bank.requests().slice(before).map((request) => request.path) };
}

const moneyRequests = (paths: string[]) => paths.filter((path) => /funds_transfer/.test(path));
const today = () => new Date().toISOString().slice(0, 10);

/** The bank's own figure: the source account's debits of today, success or pending, in kobo. */
function debitedToday(account: string): bigint {
	const day = today();
	return fx.bank.bank.transactions
		.filter((t) => t.accountNumber === account && t.type === 'debit' && t.status !== 'failed' && new Date(t.createdAtMs).toISOString().startsWith(day))
		.reduce((sum, t) => sum + t.amount, 0n);
}

const naira = (kobo: bigint) => `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}`;

describe('an AI agent after an unknown outcome', () => {
	const retryBase = REQUEST_LIMITS.retryBaseMs;
	afterEach(() => {
		REQUEST_LIMITS.retryBaseMs = retryBase;
	});

	test('reads in the message itself to keep the reference, and a new reference for the same payment is refused: paid at most once', async () => {
		REQUEST_LIMITS.retryBaseMs = 10;
		const first = newReference('unknown');
		// Both sends are lost and every status read fails: the outcome is unknown (the bank never made it).
		fx.bank.addFault({ match: 'funds_transfer', drop: 'before', times: 2 });
		fx.bank.addFault({ match: 'transaction_status', errorCode: '80', times: 20 });
		const unknown = await asTool(sendMoney(), payment(first));
		expect(String(unknown.error)).toMatch(new RegExp(`^Transfer ${first}: outcome unknown`));
		expect(String(unknown.error)).toContain(`Keep reference ${first}: check it with Transfer → Get Status`);
		expect(String(unknown.error)).toContain('Never send this payment again under a new reference');
		fx.bank.clearFaults();

		// What an agent may do next: the same payment under a reference of its own making.
		const second = newReference('again');
		const { result: again, requests } = await requestsDuring(async () => await asTool(sendMoney(), payment(second)));
		expect(String(again.error)).toContain(`Transfer ${second} was not sent: the same payment`);
		expect(String(again.error)).toContain(`sent earlier under reference ${first} and its outcome is unknown`);
		expect(String(again.error)).toContain(`send the payment again with the same reference ${first}`);
		expect(moneyRequests(requests)).toEqual([]);

		// The advice followed: the first reference is sent again, and paid once.
		const resent = await asTool(sendMoney(), payment(first));
		expect(resent).toMatchObject({ reference_number: first, status: 'successful' });
		expect(transfersWith(first)).toHaveLength(1);
		expect(transfersWith(second)).toHaveLength(0);
	});

	test('a bank refusal read as a tool says the payment was not made, with its reference', async () => {
		const reference = newReference('funds');
		const answer = await asTool(sendMoney(), payment(reference, '999999999.00'));
		expect(String(answer.error)).toMatch(new RegExp(`^Transfer ${reference} was not made: the bank answered ".*". No money moved\\.`));
		expect(transfersWith(reference)).toHaveLength(0);
	});
});

describe('Allowed Beneficiaries know the bank', () => {
	test('an allowed account number at another bank is someone else\'s account: refused before any request, the bank\'s name for it shown', async () => {
		const reference = newReference('other-bank');
		// Someone else holds the same number at bank 000014.
		fx.bank.bank.externalAccounts.push({ bankCode: '000014', accountNumber: CUSTOMER, accountName: 'Tunde Bakare' });
		const parameters = sendMoney({ transferType: 'inter', bankCode: { __rl: true, mode: 'id', value: '000014' }, options: { allowedBeneficiaryAccounts: `${CUSTOMER}:090823` } });
		const { result: answer, requests } = await requestsDuring(async () => await asTool(parameters, payment(reference)));
		fx.bank.bank.externalAccounts.pop();
		expect(String(answer.error)).toContain(`Transfer ${reference} was not sent: account ${CUSTOMER}:000014 is not among this node's Allowed Beneficiaries. Only ${CUSTOMER}:090823 is allowed`);
		expect(String(answer.error)).toContain(`The bank names account ${CUSTOMER}:000014 "Tunde Bakare".`);
		expect(String(answer.error)).toContain('Nothing was sent to the bank.');
		expect(moneyRequests(requests)).toEqual([]);
		expect(transfersWith(reference)).toHaveLength(0);
	});

	test('a bare account number means this bank: the same number at another bank is refused', async () => {
		const reference = newReference('bare');
		const { result: run, requests } = await requestsDuring(
			async () =>
				await runNode(fx.credentials, {
					parameters: createParams({ transferType: 'inter', bankCode: { __rl: true, mode: 'id', value: '000014' }, options: { allowedBeneficiaryAccounts: CUSTOMER } }),
					credentials: API,
					items: [{ reference_number: reference }],
					continueOnFail: true,
				}),
		);
		expect(run.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(run.json[0].error)).toContain(`account ${CUSTOMER}:000014 is not among this node's Allowed Beneficiaries`);
		expect(requests).toEqual([]);
		const paid = await runNode(fx.credentials, {
			parameters: createParams({ options: { allowedBeneficiaryAccounts: CUSTOMER } }),
			credentials: API,
			items: [{ reference_number: newReference('bare-ok') }],
		});
		expect(paid.json[0]).toMatchObject({ status: 'successful' });
	});
});

describe('limits fail closed', () => {
	test.each([
		['Allowed Beneficiaries from an empty list', { allowedBeneficiaryAccounts: '={{ $json.allowed }}' }, { allowed: [] }, 'Allowed Beneficiaries is set by an expression ({{ $json.allowed }})'],
		['Maximum Amount from a missing field', { maximumAmount: '={{ $json.limits?.max }}' }, {}, 'Maximum Amount is set by an expression ({{ $json.limits?.max }})'],
		['Daily Limit from an empty text', { dailyLimit: "={{ $json.daily ?? '' }}" }, { daily: null }, 'Daily Limit per Source Account is set by an expression'],
	])('%s: the item is refused before any request, naming the limit', async (_label, options, item, expected) => {
		const reference = newReference('fail-closed');
		const { result: run, requests } = await requestsDuring(
			async () =>
				await runNode(fx.credentials, {
					parameters: createParams({ amount: '250000.00', options }),
					credentials: API,
					items: [{ reference_number: reference, ...item }],
					continueOnFail: true,
				}),
		);
		expect(run.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(run.json[0].error)).toContain(`Transfer ${reference} was not sent: this node's ${expected}`);
		expect(String(run.json[0].error)).toContain('gave no value for item 1, so the limit could not be applied. Nothing was sent to the bank.');
		expect(requests).toEqual([]);
		expect(transfersWith(reference)).toHaveLength(0);
	});

	test('an empty field keeps meaning no limit', async () => {
		const run = await runNode(fx.credentials, {
			parameters: createParams({ amount: '2.00', options: { allowedBeneficiaryAccounts: '', maximumAmount: '', dailyLimit: '' } }),
			credentials: API,
			items: [{ reference_number: newReference('no-limit') }],
		});
		expect(run.json[0]).toMatchObject({ status: 'successful' });
	});
});

describe('Daily Limit per Source Account', () => {
	/** A limit this much above what the account already sent today, so each test starts with the room it names. */
	const limitWithRoom = (room: bigint) => naira(debitedToday(OPERATIONS) + room);

	test('a payment split in three under the Maximum Amount stops at the limit: the ledger shows the limit\'s worth and no more', async () => {
		const before = debitedToday(OPERATIONS);
		const options = { maximumAmount: '500.00', dailyLimit: limitWithRoom(100000n) };
		const references = [1, 2, 3].map((n) => newReference(`split-${n}`));
		const run = await runNode(fx.credentials, {
			parameters: createParams({ amount: '400.00', options }),
			credentials: API,
			items: references.map((reference) => ({ reference_number: reference })),
			continueOnFail: true,
		});
		expect(run.json.map((item) => item.outcome ?? item.status)).toEqual(['successful', 'successful', 'refused']);
		expect(String(run.json[2].error)).toContain(`Transfer ${references[2]} was not sent: account ${OPERATIONS} has sent NGN ${naira(before + 80000n)} today`);
		expect(String(run.json[2].error)).toContain('(NGN 200.00 left today). Nothing was sent to the bank. Do not split the payment');
		expect(debitedToday(OPERATIONS) - before).toBe(80000n);
	});

	test('a new n8n process counts what the bank lists: a second run sees the first run\'s debits', async () => {
		const before = debitedToday(OPERATIONS);
		const options = { dailyLimit: limitWithRoom(100000n) };
		const first = await runNode(fx.credentials, { parameters: createParams({ amount: '600.00', options }), credentials: API, items: [{ reference_number: newReference('process-a') }] });
		expect(first.json[0]).toMatchObject({ status: 'successful' });
		forgetDailyLedgers(); // what another n8n process knows of this one: nothing but the bank's list
		const second = await runNode(fx.credentials, {
			parameters: createParams({ amount: '600.00', options }),
			credentials: API,
			items: [{ reference_number: newReference('process-b') }],
			continueOnFail: true,
		});
		expect(second.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(second.json[0].error)).toContain(`NGN ${naira(before + 60000n)} listed by the bank`);
		expect(debitedToday(OPERATIONS) - before).toBe(60000n);
	});

	test('items sent five at a time cannot race past it in one process', async () => {
		const before = debitedToday(OPERATIONS);
		const run = await runNode(fx.credentials, {
			parameters: createParams({ amount: '300.00', options: { dailyLimit: limitWithRoom(100000n), concurrency: 5 } }),
			credentials: API,
			items: [1, 2, 3, 4, 5].map((n) => ({ reference_number: newReference(`race-${n}`) })),
			continueOnFail: true,
		});
		expect(run.json.filter((item) => item.status === 'successful')).toHaveLength(3);
		expect(run.json.filter((item) => item.outcome === 'refused')).toHaveLength(2);
		expect(debitedToday(OPERATIONS) - before).toBe(90000n);
	});

	test('a refused send frees its room; a list that cannot be read refuses (the limit is never skipped)', async () => {
		const reference = newReference('unreadable');
		fx.bank.addFault({ match: 'fetch_transactions', errorCode: '80', times: 50 });
		const run = await runNode(fx.credentials, {
			parameters: createParams({ amount: '1.00', options: { dailyLimit: '999999999.00' } }),
			credentials: API,
			items: [{ reference_number: reference }],
			continueOnFail: true,
		});
		fx.bank.clearFaults();
		expect(run.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(run.json[0].error)).toContain(`Transfer ${reference} was not sent: the bank's list of today's debits of account ${OPERATIONS} could not be read`);
		expect(transfersWith(reference)).toHaveLength(0);
	});

	test.each([
		['refuses a page of 10,000 (invalid input, 99)', () => fx.bank.addFault({ match: 'fetch_transactions', errorCode: '99', times: 1 })],
		['serves at most 7 records a page', () => fx.bank.configure({ pageCap: 7 })],
		['serves at most 7 records a page and numbers its pages by the size asked', () => fx.bank.configure({ pageCap: 7, pageOffsets: 'asked' })],
	])('a bank that %s is read in the pages it serves: every debit still counts', async (_label, shape) => {
		const account = fx.bank.bank.accounts.get(OPERATIONS)!;
		const now = Date.now();
		for (let n = 0; n < 40; n++) {
			fx.bank.bank.addTransaction({ id: `small-${now}-${n}`, businessId: account.businessId, reference: `SMALL-${now}-${n}`, accountNumber: OPERATIONS, accountName: account.accountName, amount: 100n, type: 'debit', category: 'transfer', status: 'success', channel: 'intra', narration: 'small', createdAtMs: now - 1000 + n });
		}
		const before = debitedToday(OPERATIONS);
		shape();
		const reference = newReference('small-pages');
		const run = await runNode(fx.credentials, {
			parameters: createParams({ amount: '5.00', options: { dailyLimit: naira(before + 400n) } }),
			credentials: API,
			items: [{ reference_number: reference }],
			continueOnFail: true,
		});
		fx.bank.configure({ pageCap: null, pageOffsets: 'served' });
		expect(run.json[0]).toMatchObject({ outcome: 'refused' });
		expect(String(run.json[0].error)).toContain(`has sent NGN ${naira(before)} today`);
		expect(String(run.json[0].error)).toContain('(NGN 4.00 left today)');
	});

	test('on a day holding 10,000 debits of the account: every call, the first of a process too, makes at most 2 list requests', async () => {
		const account = fx.bank.bank.accounts.get(OPERATIONS)!;
		const now = Date.now();
		for (let n = 0; n < 10_000; n++) {
			fx.bank.bank.addTransaction({
				id: `busy-${now}-${n}`,
				businessId: account.businessId,
				reference: `BUSY-${now}-${n}`,
				accountNumber: OPERATIONS,
				accountName: account.accountName,
				amount: 100n,
				type: 'debit',
				category: 'transfer',
				status: 'success',
				channel: 'intra',
				narration: 'busy day',
				createdAtMs: now - 60_000 + (n % 1000),
			});
		}
		const options = { dailyLimit: limitWithRoom(100000n) };
		const lists = () => fx.count('/fetch_transactions');
		const perCall: number[] = [];
		for (let call = 0; call < 6; call++) {
			const before = lists();
			const run = await runNode(fx.credentials, { parameters: createParams({ amount: '10.00', options }), credentials: API, items: [{ reference_number: newReference(`busy-${call}`) }] });
			expect(run.json[0]).toMatchObject({ status: 'successful' });
			perCall.push(lists() - before);
		}
		process.stdout.write(`[spend-policy] Daily Limit on a day of 10,000+ debits: list requests per call ${perCall.join(', ')}\n`);
		expect(Math.max(...perCall)).toBeLessThanOrEqual(2);
	});
});

describe('Daily Limit between two n8n processes racing', () => {
	test('each process is exact alone; racing, they pass at most one payment more than the limit allows (measured)', async () => {
		// A second copy of the node's modules is what another n8n process has: its own ledgers and tokens.
		let SecondProcessBaas: new () => unknown = class {};
		jest.isolateModules(() => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			SecondProcessBaas = (require('../../nodes/Baas/Baas.node') as { Baas: new () => unknown }).Baas;
		});
		const { registerNodeType } = await import('./harness/nodeTypes');
		registerNodeType('n8n-nodes-baas.baasSecondProcess', new SecondProcessBaas() as never);
		const rounds: number[] = [];
		for (let round = 0; round < 5; round++) {
			forgetDailyLedgers();
			const before = debitedToday(OPERATIONS);
			// Room for exactly 5 payments of 100.00; each process tries 5, one at a time, both at once.
			const options = { dailyLimit: naira(before + 50000n) };
			const run = async (nodeType: string | undefined, label: string) =>
				await runNode(fx.credentials, {
					parameters: createParams({ amount: '100.00', options }),
					credentials: API,
					items: [1, 2, 3, 4, 5].map((n) => ({ reference_number: newReference(`${label}-${round}-${n}`) })),
					continueOnFail: true,
					...(nodeType ? { nodeType } : {}),
				});
			const [a, b] = await Promise.all([run(undefined, 'proc-a'), run('n8n-nodes-baas.baasSecondProcess', 'proc-b')]);
			const paid = [...a.json, ...b.json].filter((item) => item.status === 'successful').length;
			expect((debitedToday(OPERATIONS) - before) / 10000n).toBe(BigInt(paid));
			rounds.push(paid);
		}
		process.stdout.write(`[spend-policy] two processes racing, room for 5 payments, 10 tried per round: paid ${rounds.join(', ')}\n`);
		for (const paid of rounds) {
			expect(paid).toBeGreaterThanOrEqual(5);
			expect(paid).toBeLessThanOrEqual(6);
		}
	});
});
