/**
 * The slice of OpenAI's Chat Completions format the stand-in model speaks: what n8n's OpenAI Chat Model node
 * (langchain's ChatOpenAI) sends, and the answers it reads, as one JSON body or as server-sent events.
 */

export interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content?: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	name?: string;
}

export interface ToolDefinition {
	type: 'function';
	function: { name: string; description?: string; parameters?: JsonSchema };
}

export interface JsonSchema {
	type?: string;
	description?: string;
	properties?: Record<string, JsonSchema>;
	required?: string[];
}

export interface CompletionRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ToolDefinition[];
	stream?: boolean;
	/** false: at most one tool call per answer (OpenAI's switch; n8n's OpenAI model node sends it from Extra Body). */
	parallel_tool_calls?: boolean;
}

/** What the model answers: text, or tool calls (arguments as an object; encoded as JSON on the wire). */
export type Reply = { content: string } | { tool_calls: Array<{ name: string; arguments: Record<string, unknown> }> };

export const STAND_IN_MODEL_ID = 'baas-stand-in-model';

/** A message's text, whichever form its content takes. */
export function textOf(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (Array.isArray(message.content)) return message.content.map((part) => part.text ?? '').join('');
	return '';
}

let calls = 0;
const callId = () => `call_standin_${Date.now().toString(36)}_${++calls}`;

function assistantMessage(reply: Reply): ChatMessage {
	if ('content' in reply) return { role: 'assistant', content: reply.content };
	return {
		role: 'assistant',
		content: null,
		tool_calls: reply.tool_calls.map((call) => ({ id: callId(), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })),
	};
}

const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** The whole answer as one chat.completion body. */
export function completion(reply: Reply): Record<string, unknown> {
	const message = assistantMessage(reply);
	return {
		id: `chatcmpl-standin-${Date.now().toString(36)}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: STAND_IN_MODEL_ID,
		choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', logprobs: null }],
		usage,
	};
}

/** The same answer as the server-sent events of a streamed completion (each a `data:` line), ending with [DONE]. */
export function completionEvents(reply: Reply): string[] {
	const message = assistantMessage(reply);
	const base = { id: `chatcmpl-standin-${Date.now().toString(36)}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: STAND_IN_MODEL_ID };
	const delta = message.tool_calls
		? { role: 'assistant', content: null, tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
		: { role: 'assistant', content: message.content };
	const chunks = [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{ ...base, choices: [{ index: 0, delta: {}, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }] },
		{ ...base, choices: [], usage },
	];
	return [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n'];
}
