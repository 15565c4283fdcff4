/**
 * The stand-in model's "thinking": a few phrasings of an operations lead turned into tool calls, and the tools'
 * answers turned into a reply. Deterministic and small on purpose: it lets the treasury assistant example run with
 * no model account (and the e2e tests drive it), it is not a language model. It only reads the conversation n8n
 * sends and the tools n8n lists, so it works with whatever the example's tools are named.
 */
import { createHash } from 'node:crypto';

import type { ChatMessage, CompletionRequest, JsonSchema, Reply, ToolDefinition } from './openai';
import { textOf } from './openai';

type Intent = 'balance' | 'transactions' | 'settlements' | 'accounts' | 'nameEnquiry' | 'sendMoney';

/** Which tool serves an intent: matched on the tool's name first, then on its description. */
const TOOL_PATTERNS: Record<Intent, RegExp> = {
	balance: /balance/i,
	transactions: /transaction/i,
	settlements: /settlement/i,
	accounts: /accounts|look_?up_account|find_account/i,
	nameEnquiry: /name/i,
	sendMoney: /send|pay/i,
};

/** The tools a request needs, in order: a payment first looks the name up, so the reviewer sees the bank's name. */
function intentsOf(text: string): Intent[] {
	const hasAccount = /\b\d{10}\b/.test(text);
	if (/\b(pay|send|transfer)\b/i.test(text) && hasAccount) return ['nameEnquiry', 'sendMoney'];
	if (/\b(whose|who owns|name (on|of)|look up)\b/i.test(text) && hasAccount) return ['nameEnquiry'];
	if (/balance/i.test(text)) return ['balance'];
	if (/settle/i.test(text)) return ['settlements'];
	if (/transaction|came in|received|history|money in/i.test(text)) return ['transactions'];
	if (/accounts?\b/i.test(text)) return ['accounts'];
	return [];
}

export const HELP_TEXT =
	'I am the sandbox\'s stand-in model, not a real one: I understand a few requests. Ask for the balance of an account ("balance of 0823000001"), what came in ("transactions of 0823000001 today"), settlements, the accounts, the name on an account ("whose is 0823100002"), or a payment ("pay NGN 2500.00 to 0823100002 from 0823000001 for invoice 17, reference INV-17").';

function findTool(tools: ToolDefinition[], intent: Intent): ToolDefinition | undefined {
	const pattern = TOOL_PATTERNS[intent];
	const byName = tools.filter((tool) => pattern.test(tool.function.name));
	// "name" also matches tool names such as Account_name_…: prefer the most specific one.
	if (intent === 'nameEnquiry') return byName.find((tool) => /enquiry|whose|look/i.test(tool.function.name)) ?? byName[0];
	return byName[0] ?? tools.find((tool) => pattern.test(tool.function.description ?? ''));
}

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** What the request says, read the simple way: account numbers, an amount, a reference, a bank code, dates. */
interface Facts {
	account?: string;
	source?: string;
	beneficiary?: string;
	amount?: string;
	reference: string;
	bankCode: string;
	narration: string;
	startDate: string;
	endDate: string;
	name?: string;
}

function factsOf(text: string, turn: ChatMessage[]): Facts {
	const numbers = text.match(/\b\d{10}\b/g) ?? [];
	const source = /\bfrom\s+(?:account\s+)?(\d{10})\b/i.exec(text)?.[1];
	const beneficiary = /\bto\s+(?:account\s+)?(\d{10})\b/i.exec(text)?.[1] ?? numbers.find((n) => n !== source);
	// The amount as written (commas dropped), never through a float.
	const amount = (/(?:NGN|₦)\s*([\d,]+(?:\.\d+)?)/i.exec(text) ?? /\b(?:pay|send|transfer)\s+([\d,]+(?:\.\d+)?)\b/i.exec(text))?.[1]?.replace(/,/g, '');
	// A caller's reference: the one the person gave, else one made from the request, so the same request asked
	// again carries the same reference (and the bank pays it once).
	const given = /\bref(?:erence)?\s*[:#]?\s*([A-Za-z0-9][A-Za-z0-9._:/-]*)/i.exec(text)?.[1];
	const reference = given ?? `AGENT-${createHash('sha256').update(text.trim().toLowerCase()).digest('hex').slice(0, 10).toUpperCase()}`;
	const bankCode = /\bbank(?:\s+code)?\s*[:#]?\s*(\d{3,6})\b/i.exec(text)?.[1] ?? '090823';
	const narration = /\bfor\s+(.+?)(?:[,;]|\s+ref|$)/i.exec(text)?.[1]?.trim() ?? 'Payment';
	const dates = text.match(/\b\d{4}-\d{2}-\d{2}\b/g) ?? [];
	const [startDate, endDate] = /\btoday\b/i.test(text)
		? [today(), today()]
		: /\byesterday\b/i.test(text)
			? [daysAgo(1), daysAgo(1)]
			: [dates[0] ?? '', dates[1] ?? dates[0] ?? ''];
	const looked = toolResults(turn).map((result) => result.value).find((value) => typeof value?.account_name === 'string');
	return {
		account: numbers[0],
		source: source ?? numbers.find((n) => n !== beneficiary),
		beneficiary,
		amount,
		reference,
		bankCode,
		narration,
		startDate,
		endDate,
		name: looked?.account_name as string | undefined,
	};
}

/** The value for one argument, chosen by its name (the $fromAI key) and description. */
function valueFor(key: string, schema: JsonSchema, facts: Facts, intent: Intent): unknown {
	const label = `${key} ${schema.description ?? ''}`;
	const pick = (): unknown => {
		if (/reference/i.test(key)) return facts.reference;
		if (/amount/i.test(key)) return facts.amount ?? '';
		if (/name/i.test(key)) return facts.name ?? '';
		if (/bank/i.test(key)) return facts.bankCode;
		if (/narration|remark|description|purpose/i.test(key)) return facts.narration;
		if (/transfer_?type/i.test(key)) return facts.bankCode === '090823' ? 'intra' : 'inter';
		if (/start/i.test(key)) return facts.startDate;
		if (/end/i.test(key)) return facts.endDate;
		if (/date|day/i.test(key)) return facts.startDate;
		if (/beneficiary|destination|\bto\b/i.test(label)) return facts.beneficiary ?? '';
		if (/source|sender|\bfrom\b/i.test(label)) return facts.source ?? '';
		if (/account/i.test(key)) return intent === 'nameEnquiry' || intent === 'sendMoney' ? (facts.beneficiary ?? '') : (facts.account ?? '');
		return '';
	};
	const value = pick();
	if (schema.type === 'number') return Number(value) || 0;
	if (schema.type === 'boolean') return false;
	return value;
}

function argumentsFor(tool: ToolDefinition, facts: Facts, intent: Intent): Record<string, unknown> {
	const fill = (schema: JsonSchema | undefined) =>
		Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([key, property]) => [key, valueFor(key, property, facts, intent)]));
	const properties = tool.function.parameters?.properties ?? {};
	// A tool behind n8n's human review takes { toolParameters, hitlParameters }.
	if (properties.toolParameters) return { toolParameters: fill(properties.toolParameters), hitlParameters: fill(properties.hitlParameters) };
	return fill(tool.function.parameters);
}

interface ToolResult {
	name: string;
	/** The reference the call carried, where it named one (a payment's). */
	reference?: string;
	text: string;
	value?: Record<string, unknown>;
	list?: Array<Record<string, unknown>>;
}

/** The tools' answers in this turn, each parsed where it is JSON (n8n sends a tool's items as a JSON array). */
function toolResults(turn: ChatMessage[]): ToolResult[] {
	const calls = new Map(turn.flatMap((message) => message.tool_calls ?? []).map((call) => [call.id, call.function]));
	return turn
		.filter((message) => message.role === 'tool')
		.map((message) => {
			const text = textOf(message);
			let parsed: unknown;
			try {
				parsed = JSON.parse(text);
			} catch {
				parsed = undefined;
			}
			const list = Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : undefined;
			const value = list ? list[0] : typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
			const call = calls.get(message.tool_call_id ?? '');
			const name = call?.name ?? '';
			const reference = referenceOf(call?.arguments);
			// n8n words some answers itself, as one { output } item (a call the reviewer declined).
			if (value && Object.keys(value).length === 1 && typeof value.output === 'string') return { name, reference, text: value.output };
			return { name, reference, text, value, list };
		});
}

function referenceOf(encoded: string | undefined): string | undefined {
	try {
		const args = JSON.parse(encoded ?? '{}') as { reference?: unknown; toolParameters?: { reference?: unknown } };
		const reference = args.toolParameters?.reference ?? args.reference;
		return typeof reference === 'string' ? reference : undefined;
	} catch {
		return undefined;
	}
}

/** n8n's own words to the model when the reviewer did not approve: "User rejected the tool call…", or feedback. */
const DECLINED = /^User rejected the tool call|^The user reviewed your planned tool call/;
const FEEDBACK = /provided feedback: "([\s\S]*)"\./;

/**
 * A declined payment in the person's words, as the example's system prompt asks a model to put it: n8n's
 * internal text (the call's id, "STOP what you are doing") is for the model, not for the person.
 */
function declined(result: ToolResult): string {
	const payment = result.reference ? `Payment ${result.reference}` : 'The payment';
	const feedback = FEEDBACK.exec(result.text)?.[1];
	if (feedback !== undefined) {
		return `${payment} was not made: your message "${feedback}" came while it waited for approval, and n8n takes a message then as declining it. No money moved. Ask for the payment again if you still want it.`;
	}
	return `${payment} was not made: the reviewer declined it, so no money moved.`;
}

const errorOf = (result: ToolResult) =>
	typeof result.value?.error === 'string' ? result.value.error : /^(error|there was an error)/i.test(result.text) ? result.text : undefined;

/** One line about a tool's answer, in words, with the bank's figures as they came. */
function describe(result: ToolResult): string {
	if (DECLINED.test(result.text) && !result.value) return declined(result);
	const error = errorOf(result);
	if (error) return `The bank tool answered with an error, so nothing was done: ${error}`;
	const value = result.value ?? {};
	if (value.reference_number !== undefined && value.status !== undefined && value.transfer_type !== undefined) {
		const again = value.already_sent === true ? ' It had already been sent under this reference earlier; it was not sent again.' : '';
		return `Transfer ${String(value.reference_number)} of NGN ${String(value.amount)}: ${String(value.status)}.${again}`;
	}
	if (value.balance !== undefined && value.account_number !== undefined && !result.list?.[1]) {
		return `Account ${String(value.account_number)} (${String(value.account_name ?? '')}) has a balance of NGN ${String(value.balance)}, as the bank reported it at ${String(value.last_balance_update ?? 'this moment')}.`;
	}
	if (value.account_name !== undefined && value.bank_name !== undefined) {
		return `Account ${String(value.account_number)} at ${String(value.bank_name)} is in the name of ${String(value.account_name)}.`;
	}
	if (result.list) {
		if (result.list.length === 0) return 'The bank returned no records.';
		const lines = result.list.slice(0, 5).map((record) =>
			[record.reference_number ?? record.reference ?? record.account_number, record.amount ?? record.balance, record.status, record.created_at ?? record.settlement_date]
				.filter((part) => part !== undefined)
				.join(' · '),
		);
		return `The bank returned ${result.list.length} record(s)${result.list.length > 5 ? ', the first 5' : ''}:\n${lines.join('\n')}`;
	}
	return result.text;
}

/** The stand-in's answer to one chat completion request. */
export function plan(request: CompletionRequest): Reply {
	const messages = request.messages ?? [];
	const lastUser = messages.map((message) => message.role).lastIndexOf('user');
	if (lastUser < 0) return { content: HELP_TEXT };
	const text = textOf(messages[lastUser]);
	const turn = messages.slice(lastUser + 1);
	const tools = request.tools ?? [];
	const called = new Set(turn.flatMap((message) => message.tool_calls ?? []).map((call) => call.function.name));
	const results = toolResults(turn);
	// A step that failed (or was refused by the reviewer) ends the plan: the person hears why.
	const stopped = results.some((result) => errorOf(result) !== undefined || (DECLINED.test(result.text) && !result.value));
	const facts = factsOf(text, turn);
	if (!stopped) {
		for (const intent of intentsOf(text)) {
			const tool = findTool(tools, intent);
			if (!tool || called.has(tool.function.name)) continue;
			return { tool_calls: [{ name: tool.function.name, arguments: argumentsFor(tool, facts, intent) }] };
		}
	}
	if (results.length === 0) return { content: intentsOf(text).length === 0 ? HELP_TEXT : 'I have no tool for that in this workflow.' };
	return { content: results.map(describe).join('\n') };
}
