/**
 * The sandbox's stand-in model (sandbox/model): OpenAI's Chat Completions format as n8n's OpenAI Chat Model sends
 * it, replies queued by a test first, then the small planner for the treasury assistant's phrasings.
 */
import type { StandInModel } from '../../sandbox/model';
import { startStandInModel } from '../../sandbox/model';
import { HELP_TEXT } from '../../sandbox/model/planner';

let model: StandInModel;

beforeAll(async () => {
	model = await startStandInModel();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const tool = (name: string, properties: Record<string, object>, gated = false) => ({
	type: 'function',
	function: {
		name,
		description: name,
		parameters: gated
			? { type: 'object', properties: { toolParameters: { type: 'object', properties }, hitlParameters: { type: 'object', properties: {} } } }
			: { type: 'object', properties },
	},
});
const TOOLS = [
	tool('Account_balance', { account_number: { type: 'string' } }),
	tool('Name_enquiry', { account_number: { type: 'string' }, bank_code: { type: 'string' } }),
	tool(
		'Send_money',
		Object.fromEntries(['reference', 'bank_code', 'amount', 'source_account', 'beneficiary_account', 'narration', 'beneficiary_name'].map((key) => [key, { type: 'string' }])),
		true,
	),
];

async function complete(messages: object[], stream = false, extra: object = {}) {
	const response = await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'x', messages, tools: TOOLS, stream, ...extra }),
	});
	expect(response.status).toBe(200);
	return stream ? await response.text() : ((await response.json()) as { choices: Array<{ message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string }> });
}

const call = (id: string, name: string, args: object) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
const answer = (id: string, content: unknown) => ({ role: 'tool', tool_call_id: id, content: JSON.stringify(content) });

describe('the stand-in model', () => {
	test('says what it is and lists itself for the credential test (GET /v1/models)', async () => {
		const models = (await (await fetch(`${model.baseUrl}/models`)).json()) as { data: Array<{ id: string; owned_by: string }> };
		expect(models.data).toEqual([expect.objectContaining({ id: 'baas-stand-in-model', owned_by: expect.stringMatching(/stand-in, not a model/) })]);
		const reply = (await complete([{ role: 'user', content: 'hello' }])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect(reply.choices[0].message.content).toBe(HELP_TEXT);
	});

	test('a balance question becomes a call of the balance tool, and its answer a sentence with the bank\'s figure as given', async () => {
		const first = (await complete([{ role: 'user', content: 'What is the balance of 0823000001?' }])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect(first.choices[0].finish_reason).toBe('tool_calls');
		const [toolCall] = first.choices[0].message.tool_calls!;
		expect([toolCall.function.name, JSON.parse(toolCall.function.arguments)]).toEqual(['Account_balance', { account_number: '0823000001' }]);
		const second = (await complete([
			{ role: 'user', content: 'What is the balance of 0823000001?' },
			call(toolCall.id, 'Account_balance', { account_number: '0823000001' }),
			answer(toolCall.id, [{ account_number: '0823000001', account_name: 'Pool', balance: '52450605.770000000', last_balance_update: '2026-11-24T06:52:49.000Z' }]),
		])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect(second.choices[0].message.content).toContain('NGN 52450605.770000000');
	});

	test('a payment looks the name up first, then calls the gated Send money with that name and the reference given', async () => {
		const ask = { role: 'user', content: 'pay NGN 2,500.00 to 0823100002 from 0823000001 for invoice 17, reference INV-17' };
		const first = (await complete([ask])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		const [lookUp] = first.choices[0].message.tool_calls!;
		expect([lookUp.function.name, JSON.parse(lookUp.function.arguments)]).toEqual(['Name_enquiry', { account_number: '0823100002', bank_code: '090823' }]);
		const second = (await complete([ask, call('c1', 'Name_enquiry', {}), answer('c1', [{ account_name: 'Babatunde Adeyemi', account_number: '0823100002', bank_name: 'Sandbox MFB' }])])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		const [send] = second.choices[0].message.tool_calls!;
		expect(send.function.name).toBe('Send_money');
		expect(JSON.parse(send.function.arguments)).toEqual({
			toolParameters: { reference: 'INV-17', bank_code: '090823', amount: '2500.00', source_account: '0823000001', beneficiary_account: '0823100002', narration: 'invoice 17', beneficiary_name: 'Babatunde Adeyemi' },
			hitlParameters: {},
		});
		const declined = (await complete([
			ask,
			call('c1', 'Name_enquiry', {}),
			answer('c1', [{ account_name: 'Babatunde Adeyemi', account_number: '0823100002', bank_name: 'Sandbox MFB' }]),
			call('c2', 'Send_money', { toolParameters: { reference: 'INV-17' }, hitlParameters: {} }),
			answer('c2', [{ output: 'User rejected the tool call to Send money (id: c2). STOP what you are doing and wait for the user to tell you how to proceed. The tool is still available if needed.' }]),
		])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		// In the person's words: n8n's words to the model never reach the chat.
		expect(declined.choices[0].message.content).toContain('\nPayment INV-17 was not made: the reviewer declined it, so no money moved.');
		expect(declined.choices[0].message.content).not.toMatch(/rejected|STOP|\(id: /);
		const typedWhileWaiting = (await complete([
			ask,
			call('c3', 'Send_money', { toolParameters: { reference: 'INV-17' }, hitlParameters: {} }),
			answer('c3', [{ output: 'The user reviewed your planned tool call to Send money (id: c3) and provided feedback: "balance of 0823000001". The tool is still available if needed.' }]),
		])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect(typedWhileWaiting.choices[0].message.content).toBe(
			'Payment INV-17 was not made: your message "balance of 0823000001" came while it waited for approval, and n8n takes a message then as declining it. No money moved. Ask for the payment again if you still want it.',
		);
	});

	test('a queued answer of two tool calls comes whole, or one call per answer when the request turns parallel tool calls off', async () => {
		const two = { tool_calls: [{ name: 'Account_balance', arguments: { account_number: '0823000001' } }, { name: 'Account_balance', arguments: { account_number: '0823000002' } }] };
		const names = (reply: Exclude<Awaited<ReturnType<typeof complete>>, string>) => (reply.choices[0].message.tool_calls ?? []).map((c) => JSON.parse(c.function.arguments).account_number as string);
		model.queue(two);
		const whole = (await complete([{ role: 'user', content: 'both' }])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect(names(whole)).toEqual(['0823000001', '0823000002']);
		model.queue(two, { content: 'Done.' });
		const off = { parallel_tool_calls: false };
		const first = (await complete([{ role: 'user', content: 'both' }], false, off)) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		const second = (await complete([{ role: 'user', content: 'both' }], false, off)) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		const last = (await complete([{ role: 'user', content: 'both' }], false, off)) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect([names(first), names(second), last.choices[0].message.content]).toEqual([['0823000001'], ['0823000002'], 'Done.']);
	});

	test('queued replies come first, in order, streamed when asked; each request is kept', async () => {
		const queued = await fetch(`${model.url}/__model/replies`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ replies: [{ tool_calls: [{ name: 'Account_balance', arguments: { account_number: '0823000002' } }] }, { content: 'Done.' }] }),
		});
		expect(await queued.json()).toEqual({ queued: 2 });
		const streamed = (await complete([{ role: 'user', content: 'anything' }], true)) as string;
		expect(streamed).toContain('"name":"Account_balance"');
		expect(streamed.trim().endsWith('data: [DONE]')).toBe(true);
		const text = (await complete([{ role: 'user', content: 'anything' }])) as Exclude<Awaited<ReturnType<typeof complete>>, string>;
		expect(text.choices[0].message.content).toBe('Done.');
		expect(model.requests().map((r) => r.scripted)).toEqual([true, true]);
		const bad = await fetch(`${model.url}/__model/replies`, { method: 'POST', body: JSON.stringify({ replies: [{ nothing: 1 }] }) });
		expect(bad.status).toBe(400);
	});
});
