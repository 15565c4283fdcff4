import type { IExecuteFunctions } from 'n8n-workflow';

import { toolCallerOf, toolRefusal } from '../toolCaller';

/**
 * The rules Send money keeps when it runs as an AI tool, checked before anything is sent (DESIGN "As an AI
 * tool"; docs/ai-agents.md):
 * - it runs only for a call a person approved in n8n's human review (never straight for a model, never over MCP);
 * - the reference is the caller's: exactly one $fromAI(...) value, so a call retried by the agent or by n8n's
 *   Retry On Fail carries the same reference and the bank pays it once;
 * - the beneficiary's name is checked with the bank, so the name the reviewer approved is the bank's.
 */
const CALLER_REFUSALS = {
	mcp: "Send money is not offered over MCP: n8n's human review cannot approve an MCP tool call, so no money moves for an MCP client. Nothing was sent to the bank.",
	agent:
		"Send money runs as an AI tool only after a person approves the call in n8n's human review: connect it to the agent through a human review node (for example Chat → Human review, n8n 2.x), not straight to the agent. Nothing was sent to the bank.",
} as const;

const LITERAL = "'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|`(?:[^`\\\\]|\\\\.)*`";
/** The whole parameter is one $fromAI(...) call (any of n8n's spellings) of literal arguments, nothing around it. */
const CALLERS_OWN_VALUE = new RegExp(`^=\\s*\\{\\{\\s*\\$from(?:AI|Ai|ai)\\(\\s*(?:${LITERAL})(?:\\s*,\\s*(?:${LITERAL}|[\\w.-]+))*\\s*\\)\\s*\\}\\}\\s*$`);

export function refuseUnsafeToolCall(context: IExecuteFunctions): void {
	const caller = toolCallerOf(context);
	if (caller === undefined) return;
	if (caller !== 'humanReview') throw toolRefusal(context, CALLER_REFUSALS[caller]);
	const parameters = context.getNode().parameters;
	if (!CALLERS_OWN_VALUE.test(String(parameters.referenceNumber ?? ''))) {
		throw toolRefusal(
			context,
			"Send money as an AI tool takes the agent's own reference: set Reference Number to {{ $fromAI('reference', …) }} and nothing else, so a retried call carries the same reference and the bank pays it once. Nothing was sent to the bank.",
		);
	}
	if (parameters.checkBeneficiaryName !== true) {
		throw toolRefusal(
			context,
			"Send money as an AI tool checks the beneficiary's name with the bank: turn on Check Beneficiary Name and give Beneficiary Account Name as {{ $fromAI('beneficiary_name', …) }}, so the name the reviewer approves is the bank's. Nothing was sent to the bank.",
		);
	}
}
