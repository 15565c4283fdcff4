/**
 * Send money's spend policy in the real n8n 2.41.1 (docs/safety.md): the Daily Limit per Source Account holds across
 * two n8n processes paying from one bank, and across the items of one run; a credential marked Read Only refuses
 * Send money before any request, in a workflow and when it is wired to an MCP Server Trigger; the MCP server
 * example, on its read-only credentials, still answers its read tools. What moved is read from the bank's ledger.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { formatAmount } from '../../sandbox/data/money';
import { SANDBOX_MCP_TOKEN } from '../../scripts/n8n/aiCredentials';
import { READ_ONLY_API_CREDENTIAL } from '../../scripts/n8n/credentials';
import { LINES } from '../../scripts/n8n/paths';
import type { PolicyN8n, PolicyStack } from './support/spendPolicyStack';
import { AT_ONCE, DAILY_LIMIT, MCP_PATHS, PATHS, SPLIT_MAXIMUM, startPolicyStack } from './support/spendPolicyStack';

jest.setTimeout(300_000);

const line = LINES['2'];
// Two ports of its own (BAAS_E2E_PORT_BASE + 60 and + 61), clear of the other e2e files' n8n instances.
const base = Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 60;
const BENEFICIARY = '0823100002';

let stack: PolicyStack;
const started = Date.now();

beforeAll(async () => {
	stack = await startPolicyStack(line, [base, base + 1]);
	process.stdout.write(`[e2e policy] ready in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}, 900_000);
afterAll(async () => {
	await stack?.stop();
	process.stdout.write(`[e2e policy] whole file ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
});

interface LedgerTransfer {
	reference_number: string;
	amount: string;
	status: string;
	source_account_number: string;
}
const transfersFrom = async (source: string) =>
	((await (await fetch(`${stack.bank.url}/__sandbox/ledger`)).json()) as { data: { transfers: LedgerTransfer[] } }).data.transfers.filter(
		(transfer) => transfer.source_account_number === source,
	);
/** The sum of the transfers' amounts, in kobo and back: never a float on money. */
const total = (transfers: LedgerTransfer[]) => formatAmount(transfers.reduce((sum, transfer) => sum + BigInt(transfer.amount.replace('.', '')), 0n));
const bankRequests = () => stack.bank.requests().length;

interface Payment {
	reference: string;
	amount: string;
	source: string;
}
/** Starts a workflow's webhook with these payments; returns what Send money made of each, in order. */
async function pay(process: PolicyN8n, pathName: string, payments: Payment[]): Promise<Array<Record<string, unknown>>> {
	const response = await fetch(`${process.n8n.url}/webhook/${pathName}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ payments: payments.map((payment) => ({ ...payment, beneficiary: BENEFICIARY })) }),
	});
	if (!response.ok) throw new Error(`${pathName}: HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as Array<Record<string, unknown>>;
}
const reference = (name: string) => `E2E-POLICY-${name}-${Date.now()}`;

describe(`the Daily Limit per Source Account (NGN ${DAILY_LIMIT}) on n8n ${line.version}`, () => {
	test('two n8n processes, one bank: a payment on process B sees process A\'s debit of the day and is refused; the ledger shows NGN 600.00 and no more', async () => {
		const source = '0823000002';
		const first = reference('A');
		const [paid] = await pay(stack.a, PATHS.pay, [{ reference: first, amount: '600.00', source }]);
		expect(paid).toMatchObject({ reference_number: first, amount: '600.00', status: 'successful' });

		const second = reference('B');
		const requestsBefore = bankRequests();
		const [refused] = await pay(stack.b, PATHS.pay, [{ reference: second, amount: '600.00', source }]);
		expect(String(refused.error)).toMatch(new RegExp(`^Transfer ${second} was not sent: .*daily limit`, 'i'));
		expect(String(refused.error)).toContain('Nothing was sent to the bank.');
		// B read the ledger (today's debits of the account) and sent no transfer.
		expect(stack.bank.requests().slice(requestsBefore).filter((request) => request.path.includes('funds_transfer'))).toEqual([]);
		expect(await transfersFrom(source)).toEqual([expect.objectContaining({ reference_number: first, amount: '600.00' })]);

		// What is left of the day's limit is still paid: the refusal was the limit, not the account.
		const rest = reference('B-REST');
		const [restPaid] = await pay(stack.b, PATHS.pay, [{ reference: rest, amount: '400.00', source }]);
		expect(restPaid).toMatchObject({ reference_number: rest, amount: '400.00', status: 'successful' });
		expect(total(await transfersFrom(source))).toBe(DAILY_LIMIT);
	});

	test(`a payment split in three under the Maximum Amount (NGN ${SPLIT_MAXIMUM}) stops at the daily limit: two paid, the third refused, NGN 800.00 debited`, async () => {
		const source = '0823000001';
		const parts = ['1', '2', '3'].map((part) => ({ reference: reference(`SPLIT-${part}`), amount: '400.00', source }));
		const outcomes = await pay(stack.a, PATHS.split, parts);
		expect(outcomes.slice(0, 2)).toEqual(parts.slice(0, 2).map((part) => expect.objectContaining({ reference_number: part.reference, amount: '400.00', status: 'successful' })));
		expect(String(outcomes[2].error)).toMatch(new RegExp(`^Transfer ${parts[2].reference} was not sent: .*daily limit`, 'i'));
		expect(String(outcomes[2].error)).toContain('Nothing was sent to the bank.');
		const debited = await transfersFrom(source);
		expect(debited.map((transfer) => transfer.reference_number).sort()).toEqual(parts.slice(0, 2).map((part) => part.reference).sort());
		expect(total(debited)).toBe('800.00');
	});

	test(`the same split sent ${AT_ONCE} at a time (Concurrency ${AT_ONCE}): what is in flight counts too, so one part is still refused`, async () => {
		const source = '0823100001';
		const parts = ['1', '2', '3'].map((part) => ({ reference: reference(`AT-ONCE-${part}`), amount: '400.00', source }));
		const outcomes = await pay(stack.a, PATHS.splitAtOnce, parts);
		const paid = outcomes.filter((outcome) => outcome.status === 'successful');
		const refused = outcomes.filter((outcome) => outcome.error !== undefined);
		expect({ paid: paid.length, refused: refused.length }).toEqual({ paid: 2, refused: 1 });
		expect(String(refused[0].error)).toMatch(/^Transfer E2E-POLICY-AT-ONCE-\d-\d+ was not sent: .*daily limit/i);
		expect(String(refused[0].error)).toContain('Nothing was sent to the bank.');
		const debited = await transfersFrom(source);
		expect(debited.map((transfer) => transfer.reference_number).sort()).toEqual(paid.map((outcome) => String(outcome.reference_number)).sort());
		expect(total(debited)).toBe('800.00');
	});
});

describe(`a credential marked Read Only on n8n ${line.version}`, () => {
	test('Send money in a workflow with it is refused before any request, and its message names the read-only credential', async () => {
		const source = '0823100003';
		const ref = reference('READ-ONLY');
		const requestsBefore = bankRequests();
		const [refused] = await pay(stack.a, PATHS.readOnly, [{ reference: ref, amount: '10.00', source }]);
		expect(String(refused.error)).toContain(`"${READ_ONLY_API_CREDENTIAL.name}"`);
		expect(String(refused.error)).toContain('Nothing was sent to the bank.');
		expect(bankRequests()).toBe(requestsBefore);
		expect(await transfersFrom(source)).toEqual([]);
	});

	test('Send money on it wired to an MCP Server Trigger: a real MCP client\'s call is refused before any request, nothing moves', async () => {
		const client = await connectMcp(MCP_PATHS.readOnlySend);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name)).toContain('Send_money');
			const source = '0823100004';
			const ref = reference('MCP');
			const requestsBefore = bankRequests();
			const result = (await client.callTool({
				name: 'Send_money',
				arguments: {
					reference: ref,
					bank_code: '090823',
					amount: '200.00',
					source_account: source,
					beneficiary_account: BENEFICIARY,
					narration: 'over MCP, read-only credential',
					beneficiary_name: stack.bank.bank.accounts.get(BENEFICIARY)!.accountName,
				},
			})) as { content: Array<{ text: string }> };
			const text = result.content.map((part) => part.text).join(' ');
			// Whichever refusal comes first (MCP, or the read-only credential), it says nothing was sent.
			expect(text).toMatch(/not offered over MCP|read[- ]only/i);
			expect(text).toMatch(/Nothing was sent to the bank/);
			expect(bankRequests()).toBe(requestsBefore);
			expect(await transfersFrom(source)).toEqual([]);
		} finally {
			await client.close();
		}
	});

	test('the MCP server example, on its read-only credentials, answers its read tools with the bank\'s figures', async () => {
		const client = await connectMcp(MCP_PATHS.example);
		try {
			const pool = '0823000001';
			const balance = (await client.callTool({ name: 'Account_balance', arguments: { account_number: pool } })) as { content: Array<{ text: string }> };
			const [answer] = JSON.parse(balance.content[0].text) as Array<{ account_number: string; balance: string }>;
			expect(answer).toMatchObject({ account_number: pool, balance: `${formatAmount(stack.bank.bank.accounts.get(pool)!.balance)}0000000` });
			// A read on the read-only BaaS Dashboard credential too.
			const name = (await client.callTool({ name: 'Name_enquiry', arguments: { account_number: BENEFICIARY, bank_code: '090823' } })) as { content: Array<{ text: string }> };
			expect(name.content[0].text).toContain(stack.bank.bank.accounts.get(BENEFICIARY)!.accountName);
		} finally {
			await client.close();
		}
	});
});

/** A real MCP client (the SDK's Client over streamable HTTP) connected to an MCP Server Trigger of process A. */
async function connectMcp(pathName: string): Promise<Client> {
	const client = new Client({ name: 'n8n-nodes-baas e2e policy', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${stack.a.n8n.url}/mcp/${pathName}`), { requestInit: { headers: { Authorization: `Bearer ${SANDBOX_MCP_TOKEN}` } } }),
	);
	return client;
}
