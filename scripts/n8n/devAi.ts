/**
 * `npm run dev`'s part of the AI examples: the sandbox's stand-in model beside the bank, and what Ready says about
 * the treasury assistant (n8n 2.x) and the MCP server (docs/ai-agents.md).
 */
import type { StandInModel } from '../../sandbox/model';
import { startStandInModel } from '../../sandbox/model';
import { SANDBOX_MCP_TOKEN } from './aiCredentials';
import { readExample } from './examples';
import type { N8nLine } from './paths';

export async function startDevModel(): Promise<StandInModel> {
	return await startStandInModel({ port: 0 });
}

/** The public chat page of the treasury assistant: its Chat Trigger's webhook. */
function chatUrl(n8nUrl: string): string {
	const trigger = readExample('treasury-assistant.json').nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	return `${n8nUrl}/webhook/${String(trigger?.webhookId)}/chat`;
}

/** The MCP Server Trigger's streamable HTTP endpoint (its Path under n8n's /mcp/). */
export function mcpUrl(n8nUrl: string): string {
	const trigger = readExample('mcp-server.json').nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
	return `${n8nUrl}/mcp/${String(trigger?.parameters.path)}`;
}

export function aiReadyLines(line: N8nLine, n8nUrl: string, model: StandInModel): string {
	const assistant =
		line.name === '2.x'
			? `Treasury assistant (AI agent; every payment waits for your approval in the chat): open "BaaS: treasury
  assistant" → Open chat, or its chat page ${chatUrl(n8nUrl)} (that page needs internet access for n8n's chat widget).
  Ask e.g. "balance of 0823000001", "pay NGN 2500.00 to 0823100002 from 0823000001 for invoice 17, reference INV-17".
  Each decision (approved or declined) becomes a row in the data table "BaaS payment decisions".
  It talks to the sandbox's stand-in model at ${model.baseUrl} (a scripted planner, not a model): swap in your own
  model's credential in its "Model (sandbox stand-in)" node (docs/ai-agents.md).`
			: 'Treasury assistant: needs n8n 2.x (human review of tool calls); on 1.x see docs/ai-agents.md, "n8n 1.x".';
	return `${assistant}
MCP server (read-only BaaS tools): ${mcpUrl(n8nUrl)}   Authorization: Bearer ${SANDBOX_MCP_TOKEN}`;
}
