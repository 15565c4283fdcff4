import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withOutcome } from './writeOutcome';

/**
 * Who runs this node as an AI tool: an MCP client through n8n's MCP Server Trigger, an agent on its own, or an
 * agent after a person approved the call in n8n's human review (a "…HitlTool" node between tool and agent).
 */
export type ToolCaller = 'mcp' | 'agent' | 'humanReview';

/**
 * Whether this run is the node's AI-tool twin: n8n gives a node that is usable as a tool a second type named
 * "<type>Tool" (n8n-nodes-baas.baasTool, baasDashboardTool). n8n's own `@tool` display condition tests the same
 * name (n8n-workflow's node-helpers). A tool of ours is never a trigger, so no other type ends that way.
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/** The node this tool run's input came from, when n8n records one. */
function previousNodeOf(context: IExecuteFunctions): string | undefined {
	try {
		return context.getInputSourceData()?.previousNode;
	} catch {
		// No source recorded (a run started at this node).
		return undefined;
	}
}

/**
 * Whether `name` is a human review node gating this tool. n8n 2.x runs an approved call as a step of its own
 * whose input comes from the review node; an agent's own calls come from the agent. The review node is told
 * apart by its connections (a node's type is not readable from another node): this tool is wired into it, and
 * it has neither a main input nor a language model, which every agent has.
 */
function isHumanReview(context: IExecuteFunctions, name: string, self: string): boolean {
	const parents = (connectionType: 'main' | 'ai_languageModel' | 'ai_tool') =>
		context.getParentNodes(name, { connectionType, depth: 1 }).map((node) => node.name);
	return parents('ai_tool').includes(self) && parents('main').length === 0 && parents('ai_languageModel').length === 0;
}

/**
 * Who runs this tool, or undefined when the node runs as an ordinary node. Read from how n8n runs it (n8n 2.41.1
 * and 1.123.81): the MCP Server Trigger and the agents of n8n 1.x run a tool inside their own step (the step n8n
 * is executing is theirs); n8n 2.x agents ask n8n to run the tool as a step after theirs, or after the review
 * node that released it; a queue-mode worker runs an MCP client's call as the tool's own step with no source.
 */
export function toolCallerOf(context: IExecuteFunctions): ToolCaller | undefined {
	if (!runsAsTool(context)) return undefined;
	const self = context.getNode().name;
	const running: INode | undefined = context.getExecuteData?.()?.node;
	if (running && running.name !== self) return /\.mcpTrigger$/i.test(running.type) ? 'mcp' : 'agent';
	const previous = previousNodeOf(context);
	// A tool run as its own step with no input source is an MCP client's call run by a queue-mode worker (n8n 2.41's
	// job processor gives it none; an agent's tool step always has the agent or a review node as its source). An
	// unknown caller is never given more than an MCP client: writes are refused.
	if (previous === undefined) return 'mcp';
	return isHumanReview(context, previous, self) ? 'humanReview' : 'agent';
}

/** A refusal of a tool call before anything is sent: the message alone is what the model or MCP client reads. */
export function toolRefusal(context: IExecuteFunctions, message: string): NodeOperationError {
	return withOutcome(new NodeOperationError(context.getNode(), message, { description: message }), 'refused');
}

/**
 * Over MCP the BaaS tools are read-only: n8n's human review cannot gate an MCP tool, so nothing that changes
 * something at the bank runs for an MCP client. Checked before any request.
 */
export function refuseStateChangeOverMcp(context: IExecuteFunctions, what: string, changesState: boolean | undefined): void {
	if (!changesState || toolCallerOf(context) !== 'mcp') return;
	throw toolRefusal(
		context,
		`${what} is not offered over MCP: the BaaS tools are read-only for MCP clients, because n8n's human review cannot approve an MCP tool call. Nothing was sent to the bank. Use the treasury assistant (an n8n agent with human review) for payments and other changes.`,
	);
}
