/**
 * A BaaS node run as an AI tool, through n8n-core's real engine (WorkflowExecute), the three ways n8n runs one:
 * - 'review': an n8n 2.x agent asks the engine (an EngineRequest) to run a call that a person approved in human
 *   review. n8n's agent then names the review node as the call's parent (processHitlResponses in
 *   @n8n/n8n-nodes-langchain), so the tool's step follows the review node's;
 * - 'agent': the same agent asks for the tool straight, as for a tool wired to it directly;
 * - 'mcp': n8n's MCP Server Trigger runs the tool inside its own step (getInputConnectionData, then invoke);
 *   'inProcessAgent' is the same for an n8n 1.x agent;
 * - 'queueWorker': a queue-mode worker runs an MCP client's call as the tool's own step, with no input source
 *   (invokeTool in n8n 2.41's job processor): the tool is the workflow's start node.
 * The agent, the review node and the MCP trigger are test stand-ins: only the engine and the BaaS node are real.
 */
import { WorkflowExecute } from 'n8n-core';
import type {
	EngineResponse,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IRun,
	IWorkflowBase,
	NodeConnectionType,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { Baas } from '../../../nodes/Baas/Baas.node';
import { BaasDashboard } from '../../../nodes/BaasDashboard/BaasDashboard.node';
import { buildAdditionalData } from './additionalData';
import { credentialRefs } from './baasNode';
import type { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes, PACKAGE_PREFIX, registerNodeType } from './nodeTypes';

export type ToolWay = 'review' | 'agent' | 'mcp' | 'inProcessAgent' | 'queueWorker';

/** n8n's tool twin of a node version (n8n/dist/tool-generation/ai-tools.js): "<name>Tool", no inputs, an ai_tool output. */
function toolTwin(nodeType: INodeType): INodeType {
	const description: INodeTypeDescription = { ...nodeType.description, name: `${nodeType.description.name}Tool`, inputs: [], outputs: ['ai_tool'] };
	return { description, methods: nodeType.methods, execute: nodeType.execute };
}

/** Stand-in for an n8n 2.x agent: one engine request for the calls in its `calls` parameter; then their answers. */
class TestAgent implements INodeType {
	description = {
		displayName: 'Test Agent',
		name: 'testAgent',
		group: ['transform'],
		version: 1,
		description: 'Asks the engine to run tool calls',
		defaults: { name: 'Agent' },
		inputs: ['main', 'ai_languageModel', 'ai_tool'],
		outputs: ['main'],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions, response?: EngineResponse) {
		// n8n hands every run an engine response; the first one is empty.
		if (response?.actionResponses.length) {
			return [response.actionResponses.map((answer) => ({ json: { answer: answer.data?.data?.ai_tool?.[0]?.[0]?.json ?? null } as IDataObject }))];
		}
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as Array<{ node: string; input: IDataObject; approvedBy?: string }>;
		return {
			actions: calls.map((call, index) => ({
				actionType: 'ExecutionNodeAction' as const,
				nodeName: call.node,
				input: call.input,
				type: 'ai_tool' as const,
				id: `call-${index + 1}`,
				metadata: { itemIndex: 0, ...(call.approvedBy ? { parentNodeName: call.approvedBy } : {}) },
			})),
			metadata: {},
		};
	}
}

/** Stand-in for a node that calls its tools inside its own step: n8n's MCP Server Trigger, or an n8n 1.x agent. */
class InProcessCaller implements INodeType {
	constructor(name: string) {
		this.description = { ...this.description, name };
	}

	description = {
		displayName: 'In-process Tool Caller',
		name: 'inProcessCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls a connected tool inside its own step',
		defaults: { name: 'Caller' },
		inputs: ['main', 'ai_tool'],
		outputs: ['main'],
		properties: [{ displayName: 'Arguments', name: 'arguments', type: 'json', default: '{}' }],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const [tool] = (await this.getInputConnectionData('ai_tool', 0)) as Array<{ invoke(args: IDataObject): Promise<string> }>;
		const args = JSON.parse(this.getNodeParameter('arguments', 0) as string) as IDataObject;
		try {
			return [[{ json: { answer: JSON.parse(await tool.invoke(args)) as IDataObject } }]];
		} catch (error) {
			return [[{ json: { error: (error as Error).message } }]];
		}
	}
}

/** Stand-in for a human review node (a "…HitlTool"): in the workflow only, as n8n wires one. */
class TestReview implements INodeType {
	description = {
		displayName: 'Test Review',
		name: 'testReviewHitlTool',
		group: ['transform'],
		version: 1,
		description: 'Gates a tool',
		defaults: { name: 'Review' },
		inputs: ['ai_tool'],
		outputs: ['ai_tool'],
		properties: [],
	} as unknown as INodeTypeDescription;
}

/** Stand-in for a chat model: in the workflow only, so the agent has the language model input every agent has. */
class TestModel implements INodeType {
	description = {
		displayName: 'Test Model',
		name: 'testModel',
		group: ['transform'],
		version: 1,
		description: 'A language model',
		defaults: { name: 'Model' },
		inputs: [],
		outputs: ['ai_languageModel'],
		properties: [],
	} as unknown as INodeTypeDescription;
}

registerNodeType(`${PACKAGE_PREFIX}.baasTool`, toolTwin(new Baas().getNodeType(2)));
registerNodeType(`${PACKAGE_PREFIX}.baasDashboardTool`, toolTwin(new BaasDashboard()));
registerNodeType('test.testAgent', new TestAgent());
registerNodeType('test.testReviewHitlTool', new TestReview());
registerNodeType('test.testModel', new TestModel());
registerNodeType('@n8n/n8n-nodes-langchain.mcpTrigger', new InProcessCaller('mcpTrigger'));
registerNodeType('test.agentV1', new InProcessCaller('agentV1'));

export interface ToolRunOptions {
	way: ToolWay;
	/** The tool node's parameters ($fromAI where the caller gives a value). */
	parameters: IDataObject;
	credentials: Record<string, string>;
	/** What the caller passes: the $fromAI values. */
	input: IDataObject;
	/** The dashboard node's tool twin instead of the BaaS node's. */
	dashboard?: boolean;
	/** Node settings: retryOnFail, maxTries, waitBetweenTries, onError. */
	settings?: Partial<Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>>;
	/** How many times the agent makes the call (each its own engine request action). */
	calls?: number;
}

export interface ToolRun {
	/** What the caller got back for each call: the tool's items (an agent) or its answer (in-process). */
	answers: IDataObject[];
	run: IRun;
}

const TOOL = 'BaaS Tool';

/** Runs Items → caller, with the BaaS node as the caller's tool (through a review node for 'review'). */
export async function runAsTool(helper: TestCredentialsHelper, options: ToolRunOptions): Promise<ToolRun> {
	const tool: INode = {
		id: 'tool',
		name: TOOL,
		type: `${PACKAGE_PREFIX}.${options.dashboard ? 'baasDashboard' : 'baas'}Tool`,
		typeVersion: options.dashboard ? 1 : 2,
		position: [200, 200],
		parameters: options.parameters as INode['parameters'],
		credentials: credentialRefs(options.credentials),
		...options.settings,
	};
	if (options.way === 'queueWorker') return await runAlone(helper, tool);
	const inProcess = options.way === 'mcp' || options.way === 'inProcessAgent';
	const caller: INode = inProcess
		? {
				id: 'caller',
				name: options.way === 'mcp' ? 'MCP Server Trigger' : 'Agent',
				type: options.way === 'mcp' ? '@n8n/n8n-nodes-langchain.mcpTrigger' : 'test.agentV1',
				typeVersion: 1,
				position: [200, 0],
				parameters: { arguments: JSON.stringify(options.input) },
			}
		: {
				id: 'caller',
				name: 'Agent',
				type: 'test.testAgent',
				typeVersion: 1,
				position: [200, 0],
				parameters: {
					calls: JSON.stringify(
						Array.from({ length: options.calls ?? 1 }, () => ({ node: TOOL, input: options.input, approvedBy: options.way === 'review' ? 'Review' : undefined })),
					),
				},
			};
	const nodes: INode[] = [
		{ id: 'items', name: 'Items', type: 'test.testItems', typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } },
		caller,
		tool,
		{ id: 'model', name: 'Model', type: 'test.testModel', typeVersion: 1, position: [100, 200], parameters: {} },
		{ id: 'review', name: 'Review', type: 'test.testReviewHitlTool', typeVersion: 1, position: [200, 100], parameters: {} },
	];
	const toCaller = (type: NodeConnectionType) => ({ node: caller.name, type, index: 0 });
	const connections: IConnections = {
		Items: { main: [[toCaller('main')]] },
		Model: { ai_languageModel: [[toCaller('ai_languageModel')]] },
		Review: { ai_tool: [[toCaller('ai_tool')]] },
		[TOOL]: { ai_tool: [[options.way === 'review' ? { node: 'Review', type: 'ai_tool' as const, index: 0 } : toCaller('ai_tool')]] },
	};
	const workflowData = { id: 'wf-tool', name: 'tool test', active: false, nodes, connections, settings: { executionOrder: 'v1' }, createdAt: new Date(), updatedAt: new Date() } as unknown as IWorkflowBase;
	const workflow = new Workflow({ id: 'wf-tool', name: 'tool test', nodes, connections, active: false, nodeTypes, settings: { executionOrder: 'v1' } });
	const run = await new WorkflowExecute(buildAdditionalData(helper, workflowData), 'manual').run({ workflow, startNode: workflow.getNode('Items')! });
	const answers = (run.data.resultData.runData[caller.name]?.at(-1)?.data?.main?.[0] ?? []).map((item) => item.json);
	return { answers, run };
}

/** The tool as its own step with no source, as a queue-mode worker runs an MCP call: its items, or its error. */
async function runAlone(helper: TestCredentialsHelper, tool: INode): Promise<ToolRun> {
	const workflowData = { id: 'wf-tool', name: 'tool test', active: false, nodes: [tool], connections: {}, settings: { executionOrder: 'v1' }, createdAt: new Date(), updatedAt: new Date() } as unknown as IWorkflowBase;
	const workflow = new Workflow({ id: 'wf-tool', name: 'tool test', nodes: [tool], connections: {}, active: false, nodeTypes, settings: { executionOrder: 'v1' } });
	const run = await new WorkflowExecute(buildAdditionalData(helper, workflowData), 'manual').run({ workflow, startNode: tool });
	const error = run.data.resultData.error;
	const items = run.data.resultData.runData[TOOL]?.at(-1)?.data?.ai_tool?.[0] ?? run.data.resultData.runData[TOOL]?.at(-1)?.data?.main?.[0] ?? [];
	return { answers: error ? [{ error: error.message }] : items.map((item: INodeExecutionData) => item.json), run };
}
