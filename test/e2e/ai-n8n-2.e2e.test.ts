/**
 * The AI examples in the real n8n 2.41.1 (docs/ai-agents.md), one n8n for both: the treasury assistant driven
 * through its chat with the sandbox's stand-in model (its planner, or replies a test queues), every payment
 * reviewed as the reviewer does it (the review message in the chat, its Approve or Decline link); and the MCP
 * server with a real MCP client. What moved is read from the sandbox bank's ledger.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { formatAmount, parseAmount } from '../../sandbox/data/money';
import { SANDBOX_MCP_TOKEN } from '../../scripts/n8n/aiCredentials';
import { mcpUrl } from '../../scripts/n8n/devAi';
import { LINES } from '../../scripts/n8n/paths';
import type { AiStack } from './support/aiStack';
import { startAiStack } from './support/aiStack';
import { launchBrowser } from './support/editor';
import { treasuryChat } from './support/treasuryChat';
import { waitFor } from '../support/waitFor';
import { reviewInEditorChat } from './support/treasuryEditor';

jest.setTimeout(300_000);

const line = LINES['2'];
// Its own port (BAAS_E2E_PORT_BASE + 50), clear of the other e2e files' n8n instances.
const port = Number(process.env.BAAS_E2E_PORT_BASE ?? 5700) + 50;
const POOL = '0823000001';
const BENEFICIARY = '0823100002';

let stack: AiStack;
const started = Date.now();
const figures: string[] = [];
const figure = (line: string) => figures.push(line);

beforeAll(async () => {
	stack = await startAiStack(line, port);
	figure(`n8n ${line.version} with both examples ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}, 900_000);
afterAll(async () => {
	await stack?.stop();
	process.stdout.write(`[e2e ai] figures:\n  ${[...figures, `whole file ${((Date.now() - started) / 1000).toFixed(0)} s`].join('\n  ')}\n`);
});

interface LedgerTransfer {
	reference_number: string;
	amount: string;
	status: string;
	beneficiary_account_number: string;
	source_account_number: string;
}
const transfers = async () => ((await (await fetch(`${stack.bank.url}/__sandbox/ledger`)).json()) as { data: { transfers: LedgerTransfer[] } }).data.transfers;
const ledger = async (reference: string) => (await transfers()).filter((transfer) => transfer.reference_number === reference);
const transfersFrom = async (source: string) => (await transfers()).filter((transfer) => transfer.source_account_number === source);
const bankRequests = () => stack.bank.requests().length;
/** The sum of the transfers' amounts, in kobo and back: never a float on money. */
const total = (transfers: LedgerTransfer[]) => formatAmount(transfers.reduce((sum, transfer) => sum + parseAmount(transfer.amount), 0n));
/** What the Daily Limit counts: the account's successful and pending debits of the UTC day, in kobo, from the bank's own ledger. */
const debitsToday = (account: string) => {
	const dayStart = Date.parse(new Date().toISOString().slice(0, 10));
	return stack.bank.bank.transactions
		.filter((tx) => tx.accountNumber === account && tx.type === 'debit' && tx.status !== 'failed' && tx.createdAtMs >= dayStart)
		.reduce((sum, tx) => sum + tx.amount, 0n);
};
const NGN_200000 = 20_000_000n;
const nameAtBank = (account: string) => stack.bank.bank.accounts.get(account)!.accountName;
/** What the model gives Send money for a payment to the beneficiary at this bank (the $fromAI keys of the example). */
const sendMoneyArguments = (reference: string, amount: string, narration: string, beneficiaryName = nameAtBank(BENEFICIARY)) => ({
	reference,
	bank_code: '090823',
	amount,
	source_account: POOL,
	beneficiary_account: BENEFICIARY,
	narration,
	beneficiary_name: beneficiaryName,
});
/** A model's call of the example's Send money, which n8n's human review wraps as { toolParameters, hitlParameters }. */
const sendMoneyCall = (args: object) => ({ name: 'Send_money', arguments: { toolParameters: args, hitlParameters: {} } });
const reviewedSendMoney = (args: object) => ({ tool_calls: [sendMoneyCall(args)] });

interface DecisionRow {
	time: string;
	reference: string;
	amount: string;
	source: string;
	beneficiary: string;
	bank_code: string;
	decision: string;
	outcome: string;
	execution_id: string;
}
/** The rows of the example's BaaS payment decisions for these references, once there are `count` of them. */
const decisions = async (references: string[], count: number) =>
	await waitFor(
		`${count} row(s) in BaaS payment decisions for ${references.join(', ')}`,
		async () => {
			const rows = (await stack.tables.rows(stack.tableIds['BaaS payment decisions'])) as unknown as DecisionRow[];
			const ours = rows.filter((row) => references.includes(row.reference));
			return ours.length >= count ? ours : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 500 },
	);
/** What n8n's internal words to the model look like; the person must never read them. */
const INTERNAL = /User rejected the tool call|STOP what you are doing|call_standin_|\(id: /;

describe(`the treasury assistant on n8n ${line.version} (stand-in model, human review in the chat)`, () => {
	const chat = treasuryChat(() => stack);
	// A test that failed leaves its queued replies behind: the next test starts with none.
	beforeEach(() => stack.model.reset());
	let session = 0;
	const newSession = () => `e2e-${Date.now()}-${++session}`;
	const payment = (amount: string, reference: string) => `pay NGN ${amount} to ${BENEFICIARY} from ${POOL} for invoice 17, reference ${reference}`;

	test('a balance question is answered with the bank\'s figure', async () => {
		const id = await chat.say(newSession(), `What is the balance of ${POOL}?`);
		const { text } = await chat.answer(id);
		const balance = `${formatAmount(stack.bank.bank.accounts.get(POOL)!.balance)}0000000`;
		expect(text).toContain(`NGN ${balance}`);
	});

	test('a payout waits for the reviewer, whose message shows what moves money with the bank\'s name; approved, it is paid once', async () => {
		const reference = `AI-E2E-OK-${Date.now()}`;
		const t0 = Date.now();
		const id = await chat.say(newSession(), payment('2500.00', reference));
		const review = await chat.review(id);
		figure(`payout: review message in the chat ${((Date.now() - t0) / 1000).toFixed(1)} s after the request`);
		for (const shown of [
			'Amount: NGN 2500.00',
			`From account: ${POOL}`,
			`To account: ${BENEFICIARY} at bank 090823 (this bank)`,
			`Beneficiary name: ${nameAtBank(BENEFICIARY)}`,
			`Reference: ${reference}`,
		]) {
			expect(review.text).toContain(shown);
		}
		// Nothing has moved while the reviewer has not answered.
		expect(await ledger(reference)).toEqual([]);
		const t1 = Date.now();
		await chat.open(review.approve);
		const { text, run } = await chat.answer(id);
		figure(`payout: paid and answered ${((Date.now() - t1) / 1000).toFixed(1)} s after approval`);
		expect(text).toMatch(new RegExp(`Transfer ${reference} of NGN 2500.00: successful`));
		expect(chat.sendMoneyAnswers(run)).toEqual([expect.objectContaining({ reference_number: reference, status: 'successful', already_sent: false })]);
		expect(await ledger(reference)).toEqual([expect.objectContaining({ amount: '2500.00', beneficiary_account_number: BENEFICIARY, status: 'successful' })]);
		expect(await decisions([reference], 1)).toEqual([
			expect.objectContaining({ reference, amount: '2500.00', source: POOL, beneficiary: BENEFICIARY, bank_code: '090823', decision: 'approved', outcome: expect.stringMatching(/^successful, transaction /), execution_id: id }),
		]);
	});

	test('in the editor\'s chat, as a person tries it: the review message with its buttons, Approve payment clicked there, paid once', async () => {
		const browser = await launchBrowser((message) => process.stdout.write(`[e2e ai] ${message}\n`));
		if (!browser) return;
		try {
			const reference = `AI-E2E-EDITOR-${Date.now()}`;
			const t0 = Date.now();
			const review = await reviewInEditorChat(browser, stack.n8n.url, stack.cookie, stack.treasury.id, payment('1500.00', reference), `ai-treasury-n8n-${line.version}`);
			figure(`editor chat: payout requested, reviewed and paid in ${((Date.now() - t0) / 1000).toFixed(0)} s (editor load included)`);
			for (const shown of ['Amount: NGN 1500.00', `Beneficiary name: ${nameAtBank(BENEFICIARY)}`, `Reference: ${reference}`, 'Approve payment', 'Decline']) expect(review.shown).toContain(shown);
			expect(review.answer).toContain(`Transfer ${reference} of NGN 1500.00: successful`);
			expect(await ledger(reference)).toEqual([expect.objectContaining({ amount: '1500.00', status: 'successful' })]);
		} finally {
			await browser.close();
		}
	});

	test('declined, nothing is paid and the agent is told so', async () => {
		const reference = `AI-E2E-NO-${Date.now()}`;
		const id = await chat.say(newSession(), payment('100.00', reference));
		const review = await chat.review(id);
		const requestsBefore = bankRequests();
		await chat.open(review.decline);
		const { text, run } = await chat.answer(id);
		// In the person's words: n8n's words to the model (the call's id, "STOP what you are doing") stay out of the chat.
		expect(text).toContain(`Payment ${reference} was not made: the reviewer declined it, so no money moved.`);
		expect(text).not.toMatch(INTERNAL);
		expect(chat.runsOf(run, 'Send money')).toEqual([]);
		expect(await ledger(reference)).toEqual([]);
		expect(bankRequests()).toBe(requestsBefore);
		// What n8n told the model.
		const told = stack.model.requests().at(-1)!.request.messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
		expect(told.at(-1)).toMatch(/User rejected the tool call to Send money/);
		expect(await decisions([reference], 1)).toEqual([expect.objectContaining({ reference, amount: '100.00', decision: 'declined', outcome: expect.stringMatching(/^not sent: declined/), execution_id: id })]);
	});

	test('two payments in one model turn: each is shown for review in the chat, one at a time; the approved one is paid, the declined one is not, and both are recorded', async () => {
		const first = `AI-E2E-PAIR1-${Date.now()}`;
		const second = `AI-E2E-PAIR2-${Date.now()}`;
		// One answer holding two Send money calls, as real models answer (parallel tool calls).
		stack.model.queue({ tool_calls: [sendMoneyCall(sendMoneyArguments(first, '300000.00', 'pair one')), sendMoneyCall(sendMoneyArguments(second, '300000.00', 'pair two'))] }, { content: 'Reported.' });
		const modelRequestsBefore = stack.model.requests().length;
		const id = await chat.say(newSession(), 'pay both');
		const one = await chat.review(id, 1);
		expect(one.text).toContain(`Reference: ${first}`);
		expect(await ledger(second)).toEqual([]);
		await chat.open(one.approve);
		const two = await chat.review(id, 2);
		expect(two.text).toContain(`Reference: ${second}`);
		expect(await ledger(first)).toEqual([expect.objectContaining({ amount: '300000.00', status: 'successful' })]);
		await chat.open(two.decline);
		const { run } = await chat.answer(id);
		expect(chat.sendMoneyAnswers(run)).toEqual([expect.objectContaining({ reference_number: first, status: 'successful', already_sent: false })]);
		// The ledger holds what was approved and no more.
		expect(await ledger(first)).toHaveLength(1);
		expect(await ledger(second)).toEqual([]);
		// The example's model node asks for one tool call per answer (OpenAI's parallel_tool_calls, in its Extra Body).
		expect(stack.model.requests().slice(modelRequestsBefore).every((logged) => logged.request.parallel_tool_calls === false)).toBe(true);
		const rows = await decisions([first, second], 2);
		expect(rows).toHaveLength(2);
		expect(rows).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ reference: first, amount: '300000.00', decision: 'approved', outcome: expect.stringMatching(/^successful/), execution_id: id }),
				expect.objectContaining({ reference: second, amount: '300000.00', decision: 'declined', outcome: expect.stringMatching(/^not sent/), execution_id: id }),
			]),
		);
	});

	test('the model calling Send money twice with the same reference, both approved: paid once, the second call told it was sent before', async () => {
		const reference = `AI-E2E-TWICE-${Date.now()}`;
		const send = reviewedSendMoney(sendMoneyArguments(reference, '300.00', 'twice'));
		stack.model.queue(send, send, { content: 'Sent.' });
		const id = await chat.say(newSession(), 'pay it twice');
		await chat.open((await chat.review(id, 1)).approve);
		await chat.open((await chat.review(id, 2)).approve);
		const { run } = await chat.answer(id);
		expect(chat.sendMoneyAnswers(run)).toEqual([
			expect.objectContaining({ reference_number: reference, status: 'successful', already_sent: false }),
			expect.objectContaining({ reference_number: reference, status: 'successful', already_sent: true }),
		]);
		expect(await ledger(reference)).toHaveLength(1);
	});

	test('above the example\'s Maximum Amount (NGN 500000.00), approved, Send money sends nothing to the bank and the agent hears why', async () => {
		const reference = `AI-E2E-MAX-${Date.now()}`;
		const id = await chat.say(newSession(), payment('500000.01', reference));
		const review = await chat.review(id);
		// The reviewer is told before deciding, from Send money's own options.
		expect(review.text).toContain(`This payment cannot be made**: NGN 500000.01 is above Send money's Maximum Amount of NGN 500000.00. Send money refuses it even if you approve, and sends nothing to the bank: decline it.`);
		expect(review.text).not.toContain('Payment waiting for your approval');
		const requestsBefore = bankRequests();
		await chat.open(review.approve);
		const { text, run } = await chat.answer(id);
		expect(bankRequests() - requestsBefore).toBe(0);
		expect(chat.sendMoneyAnswers(run)).toEqual([{ error: expect.stringContaining(`Transfer ${reference} was not sent: its amount, NGN 500000.01, is above this node's Maximum Amount of NGN 500000.00`) }]);
		expect(text).toMatch(/error, so nothing was done: .*Maximum Amount/);
		expect(await ledger(reference)).toEqual([]);
		expect(await decisions([reference], 1)).toEqual([
			expect.objectContaining({ reference, amount: '500000.01', decision: 'approved', outcome: expect.stringContaining(`refused or unknown: Transfer ${reference} was not sent: its amount`), execution_id: id }),
		]);
	});

	test('a payment split in three under the Maximum Amount, each part approved: two are paid, the third is refused by the Daily Limit per Source Account, and the bank debits the limit\'s worth and no more', async () => {
		// A source account no other test here pays from, its day brought to NGN 200000.00 of debits by a payment made at
		// the bank outside n8n: the example's limit (NGN 1000000.00) then leaves room for exactly two parts of 400000.00.
		const source = '0823000002';
		const bank = stack.bank.bank;
		const already = debitsToday(source);
		if (already > NGN_200000) throw new Error(`account ${source} already sent NGN ${formatAmount(already)} today: the split needs a day holding at most NGN 200000.00`);
		if (already < NGN_200000) {
			const transfer = { reference_number: `AI-E2E-SPLIT0-${Date.now()}`, transfer_type: 'intra' as const, amount: NGN_200000 - already, source_account_number: source, beneficiary_account_number: '0823100001', narration: 'paid at the bank' };
			bank.initiateTransfer(bank.main.id, transfer, Date.now());
		}
		expect(formatAmount(debitsToday(source))).toBe('200000.00');
		const paidBefore = (await transfersFrom(source)).map((transfer) => transfer.reference_number);
		const requestsBefore = bankRequests();
		const parts = ['1', '2', '3'].map((part) => `AI-E2E-SPLIT${part}-${Date.now()}`);
		// One Send money call per model answer; the stand-in's planner then words the answer from the tools' answers.
		stack.model.queue(...parts.map((reference, index) => reviewedSendMoney({ ...sendMoneyArguments(reference, '400000.00', `supplier invoice 88, part ${index + 1} of 3`), source_account: source })));
		const id = await chat.say(newSession(), 'split the supplier payment of NGN 1200000.00 in three');
		for (const [index, reference] of parts.entries()) {
			const review = await chat.review(id, index + 1);
			expect(review.text).toContain(`Reference: ${reference}`);
			expect(review.text).toContain(`From account: ${source}`);
			expect(review.text).toContain('Amount: NGN 400000.00');
			// Within the Maximum Amount, so it may be approved; the reviewer is told the daily limit is checked at sending.
			expect(review.text).toContain('Payment waiting for your approval');
			expect(review.text).toContain('checks its Daily Limit per Source Account (NGN 1000000.00 a day from one account)');
			await chat.open(review.approve);
		}
		const { text, run } = await chat.answer(id);
		const refusal = `Transfer ${parts[2]} was not sent: account ${source} has sent NGN 1000000.00 today`;
		const limit = "would pass this node's Daily Limit per Source Account of NGN 1000000.00 (NGN 0.00 left today). Nothing was sent to the bank.";
		const answers = chat.sendMoneyAnswers(run);
		expect(answers).toEqual([
			expect.objectContaining({ reference_number: parts[0], amount: '400000.00', status: 'successful', already_sent: false }),
			expect.objectContaining({ reference_number: parts[1], amount: '400000.00', status: 'successful', already_sent: false }),
			{ error: expect.stringContaining(refusal) },
		]);
		expect(String(answers[2].error)).toContain(limit);
		expect(text).toContain(`Transfer ${parts[0]} of NGN 400000.00: successful.`);
		expect(text).toContain(`Transfer ${parts[1]} of NGN 400000.00: successful.`);
		expect(text).toContain(refusal);
		expect(text).not.toMatch(INTERNAL);
		// The bank's ledger: the two parts and nothing of the third; the account's day now holds the limit's worth.
		const paidNow = (await transfersFrom(source)).filter((transfer) => !paidBefore.includes(transfer.reference_number));
		expect(paidNow.map((transfer) => transfer.reference_number).sort()).toEqual(parts.slice(0, 2).sort());
		expect(total(paidNow)).toBe('800000.00');
		expect(await ledger(parts[2])).toEqual([]);
		expect(stack.bank.requests().slice(requestsBefore).filter((request) => request.path.includes('funds_transfer'))).toHaveLength(2);
		expect(formatAmount(debitsToday(source))).toBe('1000000.00');
		const rows = await decisions(parts, 3);
		expect(rows).toHaveLength(3);
		expect(rows).toEqual(
			expect.arrayContaining([
				...parts.slice(0, 2).map((reference) => expect.objectContaining({ reference, amount: '400000.00', source, decision: 'approved', outcome: expect.stringMatching(/^successful, transaction /), execution_id: id })),
				expect.objectContaining({ reference: parts[2], amount: '400000.00', source, decision: 'approved', outcome: expect.stringContaining(`refused or unknown: ${refusal}`), execution_id: id }),
			]),
		);
	});

	test('in the editor\'s chat: a payment over the Maximum Amount is shown as one that cannot be made, with why, before anyone decides; declined, nothing moves', async () => {
		const browser = await launchBrowser((message) => process.stdout.write(`[e2e ai] ${message}\n`));
		if (!browser) return;
		try {
			const reference = `AI-E2E-EDITOR-MAX-${Date.now()}`;
			const review = await reviewInEditorChat(browser, stack.n8n.url, stack.cookie, stack.treasury.id, payment('600000.00', reference), `ai-treasury-over-limit-n8n-${line.version}`, {
				review: 'This payment cannot be made',
				button: 'Decline',
				answer: new RegExp(`Payment ${reference} was not made`),
			});
			expect(review.shown).toContain("This payment cannot be made: NGN 600000.00 is above Send money's Maximum Amount of NGN 500000.00.");
			expect(review.shown).toContain(`Reference: ${reference}`);
			expect(review.shown).not.toContain('Payment waiting for your approval');
			expect(review.answer).toContain(`Payment ${reference} was not made: the reviewer declined it, so no money moved.`);
			expect(review.answer).not.toMatch(INTERNAL);
			expect(await ledger(reference)).toEqual([]);
		} finally {
			await browser.close();
		}
	});

	test('in the editor\'s chat: a message typed while a review waits declines the payment, and the assistant says so in the person\'s words', async () => {
		const browser = await launchBrowser((message) => process.stdout.write(`[e2e ai] ${message}\n`));
		if (!browser) return;
		try {
			const reference = `AI-E2E-TYPED-${Date.now()}`;
			const typed = `What is the balance of ${POOL}?`;
			const review = await reviewInEditorChat(browser, stack.n8n.url, stack.cookie, stack.treasury.id, payment('800.00', reference), `ai-treasury-typed-n8n-${line.version}`, {
				review: 'Payment waiting for your approval',
				button: { type: typed },
				answer: new RegExp(`Payment ${reference} was not made`),
			});
			expect(review.shown).toContain('A message typed in this chat while this waits counts as declining it.');
			expect(review.answer).toContain(`Payment ${reference} was not made: your message "${typed}" came while it waited for approval, and n8n takes a message then as declining it.`);
			expect(review.answer).not.toMatch(INTERNAL);
			expect(await ledger(reference)).toEqual([]);
			expect(await decisions([reference], 1)).toEqual([expect.objectContaining({ reference, decision: 'declined', outcome: expect.stringContaining(typed) })]);
		} finally {
			await browser.close();
		}
	});

	test('a beneficiary outside the example\'s Allowed Beneficiaries: the review says it cannot be made, and approved, Send money refuses it before any request', async () => {
		const reference = `AI-E2E-ALLOW-${Date.now()}`;
		const outsider = '0823100003';
		stack.model.queue(reviewedSendMoney({ ...sendMoneyArguments(reference, '700.00', 'not on the list', nameAtBank(outsider)), beneficiary_account: outsider }), { content: 'Reported.' });
		const id = await chat.say(newSession(), 'pay someone not on the list');
		const review = await chat.review(id);
		expect(review.text).toContain(`This payment cannot be made**: account ${outsider} at bank 090823 is not among Send money's Allowed Beneficiaries.`);
		const requestsBefore = bankRequests();
		await chat.open(review.approve);
		const { run } = await chat.answer(id);
		expect(bankRequests()).toBe(requestsBefore);
		expect(chat.sendMoneyAnswers(run)).toEqual([{ error: expect.stringContaining(`Transfer ${reference} was not sent: account ${outsider}`) }]);
		expect(await ledger(reference)).toEqual([]);
	});

	test('approved with a name the bank does not hold on the account, nothing is paid: Send money checked it with the bank first', async () => {
		const reference = `AI-E2E-NAME-${Date.now()}`;
		stack.model.queue(reviewedSendMoney(sendMoneyArguments(reference, '400.00', 'wrong name', 'Somebody Else')), { content: 'Reported.' });
		const id = await chat.say(newSession(), 'pay somebody else');
		const review = await chat.review(id);
		expect(review.text).toContain('Beneficiary name: Somebody Else');
		await chat.open(review.approve);
		const { run } = await chat.answer(id);
		expect(chat.sendMoneyAnswers(run)).toEqual([
			{ error: `Transfer ${reference} was not sent: the bank has "${nameAtBank(BENEFICIARY)}" on account ${BENEFICIARY} (bank 090823), not "Somebody Else". Nothing was sent to the bank. Check whom this payment is for: the account number, the bank or the expected name is wrong.` },
		]);
		expect(await ledger(reference)).toEqual([]);
	});
});

describe(`Send money wired where the examples never put it, on n8n ${line.version}: the node refuses it`, () => {
	test('straight to the agent, with no human review: the model\'s call is refused before any request, and the agent is told why', async () => {
		stack.model.reset();
		const chat = treasuryChat(() => stack, (started) => started.unsafe.treasury);
		const reference = `AI-E2E-DIRECT-${Date.now()}`;
		stack.model.queue({ tool_calls: [{ name: 'Send_money', arguments: sendMoneyArguments(reference, '200.00', 'no review') }] }, { content: 'Reported.' });
		const requestsBefore = bankRequests();
		const { run } = await chat.answer(await chat.say(`e2e-direct-${Date.now()}`, 'pay without review'));
		expect(chat.sendMoneyAnswers(run)).toEqual([{ error: expect.stringMatching(/^Send money runs as an AI tool only after a person approves the call in n8n's human review/) }]);
		expect(bankRequests()).toBe(requestsBefore);
		expect(await ledger(reference)).toEqual([]);
	});

	test('to an MCP Server Trigger: n8n lists it, but a call is refused before any request', async () => {
		const client = await connectMcp(SANDBOX_MCP_TOKEN, 'baas-with-send-money');
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name)).toContain('Send_money');
			const requestsBefore = bankRequests();
			const reference = `AI-E2E-MCP-${Date.now()}`;
			const result = (await client.callTool({
				name: 'Send_money',
				arguments: sendMoneyArguments(reference, '200.00', 'over MCP'),
			})) as { isError?: boolean; content: Array<{ text: string }> };
			expect(result.content.map((part) => part.text).join(' ')).toMatch(/not offered over MCP/);
			expect(bankRequests()).toBe(requestsBefore);
			expect(await ledger(reference)).toEqual([]);
		} finally {
			await client.close();
		}
	});
});

/** A real MCP client (the SDK's Client over streamable HTTP) connected to an MCP Server Trigger's path. */
async function connectMcp(token: string, path?: string): Promise<Client> {
	const client = new Client({ name: 'n8n-nodes-baas e2e', version: '1.0.0' });
	const url = path ? `${stack.n8n.url}/mcp/${path}` : mcpUrl(stack.n8n.url);
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	return client;
}

describe(`the MCP server example on n8n ${line.version}, with a real MCP client`, () => {
	const connect = async (token: string) => await connectMcp(token);

	test('lists the read tools only, with the example\'s descriptions and input schemas', async () => {
		const client = await connect(SANDBOX_MCP_TOKEN);
		try {
			const { tools } = await client.listTools();
			const shipped = stack.mcp.nodes.filter((node) => node.type.startsWith('n8n-nodes-baas.'));
			expect(tools.map((tool) => tool.name).sort()).toEqual(shipped.map((node) => node.name.replace(/[^A-Za-z0-9_-]/g, '_')).sort());
			expect(tools.map((tool) => tool.name).sort()).toEqual(['Account_balance', 'Accounts', 'Name_enquiry', 'Settlements', 'Transactions', 'Transfer_status']);
			for (const tool of tools) {
				const node = shipped.find((candidate) => candidate.name.replace(/[^A-Za-z0-9_-]/g, '_') === tool.name)!;
				expect(tool.description).toBe(node.parameters.toolDescription);
			}
			const schema = (name: string) => Object.keys(tools.find((tool) => tool.name === name)!.inputSchema.properties ?? {}).sort();
			expect(schema('Account_balance')).toEqual(['account_number']);
			expect(schema('Transactions')).toEqual(['account_number', 'end_date', 'start_date']);
			expect(schema('Name_enquiry')).toEqual(['account_number', 'bank_code']);
		} finally {
			await client.close();
		}
	});

	test('the balance tool answers with the bank\'s figure', async () => {
		const client = await connect(SANDBOX_MCP_TOKEN);
		try {
			const t0 = Date.now();
			const result = (await client.callTool({ name: 'Account_balance', arguments: { account_number: POOL } })) as { content: Array<{ type: string; text: string }> };
			figure(`MCP: Account_balance answered in ${Date.now() - t0} ms`);
			const [answer] = JSON.parse(result.content[0].text) as Array<{ account_number: string; balance: string }>;
			expect(answer).toMatchObject({ account_number: POOL, balance: `${formatAmount(stack.bank.bank.accounts.get(POOL)!.balance)}0000000` });
		} finally {
			await client.close();
		}
	});

	test('a wrong token is refused before any tool is listed', async () => {
		await expect(connect('not-the-token')).rejects.toThrow(/401|403|Unauthorized|Authorization/i);
	});
});
