import type { ExampleWorkflow } from '../../../scripts/n8n/examples';
import { readExample } from '../../../scripts/n8n/examples';

export interface McpVariant {
	id: string;
	/** The MCP Server Trigger's path (its URL is <n8n>/mcp/<path>). */
	path: string;
	webhookId: string;
	/** Send money's credentials; the treasury assistant's when not given. */
	credentials?: Record<string, { id: string; name: string }>;
}

/**
 * The MCP server example with the treasury assistant's Send money attached, under its own id and path: the
 * mistake the package's refusals (over MCP, on a read-only credential) are there for.
 */
export function mcpWithSendMoney(mcp: ExampleWorkflow, variant: McpVariant): ExampleWorkflow {
	const copy = JSON.parse(JSON.stringify(mcp)) as ExampleWorkflow;
	copy.id = variant.id;
	copy.name = `e2e: ${mcp.name}, with Send money (${variant.id})`;
	const trigger = copy.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
	trigger.parameters.path = variant.path;
	trigger.webhookId = variant.webhookId;
	const send = readExample('treasury-assistant.json').nodes.find((node) => node.name === 'Send money')!;
	copy.nodes.push(variant.credentials ? { ...send, credentials: variant.credentials } : send);
	(copy.connections as Record<string, unknown>)['Send money'] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	return copy;
}
