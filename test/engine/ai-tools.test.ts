/**
 * The BaaS nodes as AI tools (docs/ai-agents.md), run through n8n-core's engine the ways n8n runs a tool
 * (harness/toolRun.ts): reads for any caller; Send money only for a call a person approved, with the caller's
 * reference, the beneficiary's name checked with the bank, and the node's limits, each refused before any request.
 */
import type { IDataObject } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { API, DASHBOARD } from './harness/bankFixture';
import { rl } from './harness/nodeParameters';
import type { ToolRunOptions } from './harness/toolRun';
import { runAsTool } from './harness/toolRun';
import { createParams, CUSTOMER, CUSTOMER_NAME, newReference, OPERATIONS, POOL, toolSendMoney, useTransferBank } from './harness/transfers';

const { fx, balance, transfersWith } = useTransferBank();

const BOTH = { ...API, ...DASHBOARD };
const SPLIT_ADVICE = 'Do not split the payment to pass the limit: a larger payment needs another way, ask the person who set the limit on this node.';

const sendMoney = toolSendMoney;

const payment = (reference: string, overrides: IDataObject = {}): IDataObject => ({
	reference,
	amount: '2500.00',
	beneficiary_account: CUSTOMER,
	beneficiary_name: CUSTOMER_NAME,
	...overrides,
});

const asTool = async (options: Omit<ToolRunOptions, 'credentials'> & { credentials?: Record<string, string> }) =>
	await runAsTool(fx.credentials, { credentials: BOTH, ...options });

/** Requests the bank received during `action`. */
async function requestsDuring<T>(action: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
	const before = fx.bank.requests().length;
	const result = await action();
	return { result, requests: fx.bank.requests().slice(before).map((request) => request.path) };
}

describe('BaaS tools: reads', () => {
	test.each([
		['an n8n 2.x agent', 'agent'],
		['an MCP client', 'mcp'],
		['an n8n 1.x agent (tools in its own step)', 'inProcessAgent'],
	] as const)('Account → Get Balance answers %s with the bank\'s figure, as a decimal string', async (_label, way) => {
		const run = await asTool({
			way,
			parameters: { authentication: 'apiClient', resource: 'account', operation: 'getBalance', accountNumber: rl("={{ $fromAI('account_number', 'The account', 'string') }}", 'id') },
			credentials: API,
			input: { account_number: POOL },
		});
		const answer = way === 'agent' ? run.answers[0].answer : (run.answers[0].answer as IDataObject[])[0];
		const held = fx.bank.bank.accounts.get(POOL)!;
		expect(answer).toMatchObject({ account_number: POOL, balance: expect.stringMatching(/^\d+\.\d{9}$/) });
		// The sandbox keeps kobo; the bank's string has nine decimals.
		expect(BigInt(String((answer as IDataObject).balance).replace('.', '').slice(0, -7))).toBe(held.balance);
	});

	test('a dashboard read (Name Enquiry) answers an MCP client', async () => {
		const run = await asTool({
			way: 'mcp',
			dashboard: true,
			parameters: {
				authentication: 'dashboardUser',
				resource: 'transfer',
				operation: 'nameEnquiry',
				beneficiaryAccountNumber: "={{ $fromAI('account_number', 'The account', 'string') }}",
				bankCode: rl('090823', 'id'),
				sourceAccountNumber: rl(POOL, 'id'),
			},
			credentials: DASHBOARD,
			input: { account_number: CUSTOMER },
		});
		expect(run.answers[0].answer).toEqual([expect.objectContaining({ account_name: CUSTOMER_NAME, account_number: CUSTOMER })]);
	});
});

describe('BaaS tools: Send money', () => {
	test('a call a person approved pays once; the same call again (same reference) pays nothing more and says it was sent before', async () => {
		const reference = newReference('agent-twice');
		const source = balance(OPERATIONS);
		const { result: run, requests } = await requestsDuring(() => asTool({ way: 'review', parameters: sendMoney(), input: payment(reference), calls: 2 }));
		expect(run.answers.map((a) => a.answer)).toEqual([
			expect.objectContaining({ reference_number: reference, amount: '2500.00', status: 'successful', outcome: 'successful', already_sent: false }),
			expect.objectContaining({ reference_number: reference, amount: '2500.00', status: 'successful', outcome: 'successful', already_sent: true }),
		]);
		expect(transfersWith(reference)).toHaveLength(1);
		expect(balance(OPERATIONS)).toBe(source - 250000n);
		// Each call checked the name first; the second send was the bank's 26, settled by the status of the first.
		expect(requests.filter((p) => p.endsWith('/name_enquiry'))).toHaveLength(2);
		expect(requests.filter((p) => p.endsWith('/funds_transfer'))).toHaveLength(2);
		expect(requests.filter((p) => p.endsWith('/transaction_status'))).toHaveLength(1);
	});

	test.each([
		['an n8n 2.x agent', 'agent', /only after a person approves the call in n8n's human review/],
		['an n8n 1.x agent', 'inProcessAgent', /only after a person approves the call in n8n's human review/],
		['an MCP client', 'mcp', /not offered over MCP/],
	] as const)('called by %s, with no human review, it is refused before any request', async (_label, way, message) => {
		const reference = newReference(`no-review-${way}`);
		const { result: run, requests } = await requestsDuring(() => asTool({ way, parameters: sendMoney(), input: payment(reference) }));
		const answer = way === 'agent' ? (run.answers[0].answer as IDataObject).error : run.answers[0].error;
		expect(String(answer)).toMatch(message);
		expect(String(answer)).toMatch(/Nothing was sent to the bank/);
		expect(requests).toEqual([]);
		expect(transfersWith(reference)).toHaveLength(0);
	});

	test.each([
		['made per call', "={{ $fromAI('reference', 'ref', 'string') + '-' + $now.toMillis() }}"],
		['fixed', 'AGENT-PAYOUT'],
		['the default (the item\'s reference_number)', '={{ $json.reference_number }}'],
	])('a reference that is not the caller\'s own (%s) is refused before any request', async (_label, referenceNumber) => {
		const reference = newReference('not-callers');
		const { result: run, requests } = await requestsDuring(() => asTool({ way: 'review', parameters: sendMoney({ referenceNumber }), input: payment(reference) }));
		expect(String((run.answers[0].answer as IDataObject).error)).toMatch(/takes the agent's own reference: set Reference Number to \{\{ \$fromAI\('reference'/);
		expect(requests).toEqual([]);
	});

	test('without Check Beneficiary Name it is refused before any request', async () => {
		const { result: run, requests } = await requestsDuring(() =>
			asTool({ way: 'review', parameters: sendMoney({ checkBeneficiaryName: false }), input: payment(newReference('no-check')) }),
		);
		expect(String((run.answers[0].answer as IDataObject).error)).toMatch(/turn on Check Beneficiary Name/);
		expect(requests).toEqual([]);
	});

	test('a name the bank does not hold stops it after the Name Enquiry, before any money moves', async () => {
		const reference = newReference('other-name');
		const { result: run, requests } = await requestsDuring(() => asTool({ way: 'review', parameters: sendMoney(), input: payment(reference, { beneficiary_name: 'Adaeze Okafor' }) }));
		expect((run.answers[0].answer as IDataObject).error).toBe(
			`Transfer ${reference} was not sent: the bank has "${CUSTOMER_NAME}" on account ${CUSTOMER} (bank 090823), not "Adaeze Okafor". Nothing was sent to the bank. Check whom this payment is for: the account number, the bank or the expected name is wrong.`,
		);
		expect(requests.filter((p) => /funds_transfer|transaction_status/.test(p))).toEqual([]);
		expect(transfersWith(reference)).toHaveLength(0);
	});

	test('above Maximum Amount it is refused before any request; at the maximum it is paid (amounts compared as decimals)', async () => {
		const limited = sendMoney({ options: { maximumAmount: '2500.00' } });
		const above = newReference('above-max');
		const { result: refused, requests } = await requestsDuring(() => asTool({ way: 'review', parameters: limited, input: payment(above, { amount: '2500.01' }) }));
		expect((refused.answers[0].answer as IDataObject).error).toBe(
			`Transfer ${above} was not sent: its amount, NGN 2500.01, is above this node's Maximum Amount of NGN 2500.00. Nothing was sent to the bank. ${SPLIT_ADVICE}`,
		);
		expect(requests).toEqual([]);
		const at = newReference('at-max');
		const paid = await asTool({ way: 'review', parameters: limited, input: payment(at, { amount: '2,500' }) });
		expect(paid.answers[0].answer).toMatchObject({ reference_number: at, amount: '2500.00', status: 'successful' });
	});

	test('a beneficiary outside Allowed Beneficiaries is refused before any request', async () => {
		const parameters = sendMoney({ options: { allowedBeneficiaryAccounts: '0823100002,\n0823100003:090823' } });
		const reference = newReference('not-allowed');
		const { result: run, requests } = await requestsDuring(() => asTool({ way: 'review', parameters, input: payment(reference) }));
		expect((run.answers[0].answer as IDataObject).error).toBe(
			`Transfer ${reference} was not sent: account ${CUSTOMER}:090823 is not among this node's Allowed Beneficiaries. Nothing was sent to the bank. Only the accounts listed in Allowed Beneficiaries (account:bank code) can be paid: ask the person who set the list to add it.`,
		);
		expect(requests).toEqual([]);
	});

	describe('with Retry On Fail', () => {
		const retryBase = REQUEST_LIMITS.retryBaseMs;
		afterEach(() => {
			REQUEST_LIMITS.retryBaseMs = retryBase;
		});

		test('a run that ended with the outcome unknown is run again by n8n with the same reference: paid once, and the retry says so', async () => {
			REQUEST_LIMITS.retryBaseMs = 10;
			const reference = newReference('retry');
			const source = balance(OPERATIONS);
			// The first send lands but its answer is lost, and the status reads of that run fail: outcome unknown.
			fx.bank.addFault({ match: 'funds_transfer', drop: 'after', times: 1 });
			fx.bank.addFault({ match: 'transaction_status', errorCode: '80', times: 4 });
			const { result: run, requests } = await requestsDuring(() =>
				asTool({ way: 'review', parameters: sendMoney(), input: payment(reference), settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 } }),
			);
			expect(run.answers[0].answer).toMatchObject({ reference_number: reference, status: 'successful', already_sent: true });
			expect(transfersWith(reference)).toHaveLength(1);
			expect(balance(OPERATIONS)).toBe(source - 250000n);
			expect(requests.filter((p) => p.endsWith('/funds_transfer'))).toHaveLength(2);
			process.stdout.write(`[ai-tools] Retry On Fail after an unknown outcome: ${requests.filter((p) => p.endsWith('/funds_transfer')).length} sends, ${requests.length} bank requests in all, ${transfersWith(reference).length} transfer\n`);
		});
	});
});

describe('BaaS tools over MCP are read-only', () => {
	test('a state change (Account → Update Status) is refused before any request', async () => {
		const { result: run, requests } = await requestsDuring(() =>
			asTool({
				way: 'mcp',
				dashboard: true,
				parameters: { authentication: 'dashboardUser', resource: 'account', operation: 'updateStatus', accountNumber: rl(CUSTOMER, 'id'), status: "={{ $fromAI('status', 'active or inactive', 'string') }}" },
				credentials: DASHBOARD,
				input: { status: 'inactive' },
			}),
		);
		expect(String(run.answers[0].error)).toMatch(/^Account → Update Status is not offered over MCP/);
		expect(requests).toEqual([]);
		expect(fx.bank.bank.accounts.get(CUSTOMER)!.status).toBe('active');
	});
});

describe('BaaS tools run by a queue-mode worker for an MCP client (no sign of the caller)', () => {
	test('a state change is refused before any request, as over MCP', async () => {
		const { result: run, requests } = await requestsDuring(() =>
			asTool({
				way: 'queueWorker',
				dashboard: true,
				parameters: { authentication: 'dashboardUser', resource: 'account', operation: 'updateStatus', accountNumber: rl(CUSTOMER, 'id'), status: 'inactive' },
				credentials: DASHBOARD,
				input: {},
			}),
		);
		expect(String(run.answers[0].error)).toMatch(/^Account → Update Status is not offered over MCP/);
		expect(requests).toEqual([]);
		expect(fx.bank.bank.accounts.get(CUSTOMER)!.status).toBe('active');
	});
});

describe('Send money as an ordinary node', () => {
	test('keeps its output (no already_sent), and Maximum Amount applies to it too: refused, outcome refused, nothing sent', async () => {
		const { runNode } = await import('./harness/runNode');
		const reference = newReference('plain-max');
		const { result: run, requests } = await requestsDuring(() =>
			runNode(fx.credentials, {
				parameters: createParams({ amount: '1000.00', options: { maximumAmount: '999.99' } }),
				credentials: API,
				items: [{ reference_number: reference }],
				continueOnFail: true,
				typeVersion: 2,
			}),
		);
		expect(run.json).toEqual([expect.objectContaining({ outcome: 'refused', error: `Transfer ${reference} was not sent: its amount, NGN 1000.00, is above this node's Maximum Amount of NGN 999.99. Nothing was sent to the bank. ${SPLIT_ADVICE}` })]);
		expect(requests).toEqual([]);
		const paid = await runNode(fx.credentials, { parameters: createParams({ amount: '5.00' }), credentials: API, items: [{ reference_number: newReference('plain') }], typeVersion: 2 });
		expect(paid.json[0]).toMatchObject({ status: 'successful' });
		expect(paid.json[0]).not.toHaveProperty('already_sent');
	});
});
