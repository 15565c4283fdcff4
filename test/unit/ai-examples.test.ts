/**
 * The AI examples as shipped (docs/ai-agents.md): the MCP server offers reads only, the treasury assistant's
 * Send money reaches the agent only through human review and carries the node's safety settings, and both
 * describe their tools for a model. The real-n8n runs are in test/e2e/ai-n8n-2.e2e.test.ts.
 */
import { RESOURCES } from '../../nodes/common/actions/resources';
import type { ExampleWorkflow } from '../../scripts/n8n/examples';
import { exampleFiles, loadsOn, readExample } from '../../scripts/n8n/examples';
import { LINES } from '../../scripts/n8n/paths';

const treasury = readExample('treasury-assistant.json');
const mcp = readExample('mcp-server.json');
const baasTools = (workflow: ExampleWorkflow) => workflow.nodes.filter((node) => node.type.startsWith('n8n-nodes-baas.') && node.type.endsWith('Tool'));
/** Where a node's ai_tool output goes. */
const toolTargets = (workflow: ExampleWorkflow, name: string) =>
	((workflow.connections as Record<string, { ai_tool?: Array<Array<{ node: string }>> }>)[name]?.ai_tool ?? []).flat().map((c) => c.node);
const changesState = (node: ExampleWorkflow['nodes'][number]) => Boolean(RESOURCES[String(node.parameters.resource)][String(node.parameters.operation)].changesState);

describe('the MCP server example', () => {
	test('offers BaaS reads only, each wired to the MCP Server Trigger, behind a bearer token', () => {
		const tools = baasTools(mcp);
		expect(tools.map((node) => node.name).sort()).toEqual(['Account balance', 'Accounts', 'Name enquiry', 'Settlements', 'Transactions', 'Transfer status']);
		expect(tools.filter(changesState).map((node) => node.name)).toEqual([]);
		for (const node of tools) expect(toolTargets(mcp, node.name)).toEqual(['BaaS MCP Server']);
		const trigger = mcp.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
		expect(trigger.parameters.authentication).toBe('bearerAuth');
		expect(Object.keys(trigger.credentials as object)).toEqual(['httpBearerAuth']);
	});

	test('its tools are the treasury assistant\'s reads, word for word', () => {
		for (const node of baasTools(mcp)) {
			const twin = treasury.nodes.find((candidate) => candidate.name === node.name)!;
			expect({ name: node.name, parameters: node.parameters, type: node.type }).toEqual({ name: twin.name, parameters: twin.parameters, type: twin.type });
		}
	});
});

describe('the treasury assistant example', () => {
	const send = treasury.nodes.find((node) => node.name === 'Send money')!;

	test('Send money, the only tool that moves money, reaches the agent only through the human review node', () => {
		expect(baasTools(treasury).filter(changesState).map((node) => node.name)).toEqual(['Send money']);
		expect(toolTargets(treasury, 'Send money')).toEqual(['Approve payment']);
		expect(treasury.nodes.find((node) => node.name === 'Approve payment')!.type).toBe('@n8n/n8n-nodes-langchain.chatHitlTool');
		expect(toolTargets(treasury, 'Approve payment')).toEqual(['Treasury Agent']);
	});

	test('Send money takes the agent\'s reference and the name it looked up, checks the name with the bank and has a Maximum Amount', () => {
		expect(send.parameters.referenceNumber).toMatch(/^=\{\{ \$fromAI\('reference', '[^']+', 'string'\) \}\}$/);
		expect(send.parameters.checkBeneficiaryName).toBe(true);
		expect((send.parameters.additionalFields as { beneficiaryAccountName: string }).beneficiaryAccountName).toMatch(/\$fromAI\('beneficiary_name'/);
		expect((send.parameters.options as { maximumAmount: string }).maximumAmount).toBe('500000.00');
		expect(Object.keys(send.credentials as object).sort()).toEqual(['baasApi', 'baasDashboardApi']);
	});

	test('the reviewer\'s message shows every value the model gives Send money', () => {
		const message = String(treasury.nodes.find((node) => node.name === 'Approve payment')!.parameters.message);
		const keys = [...JSON.stringify(send.parameters).matchAll(/\$fromAI\('([a-z_]+)'/g)].map((match) => match[1]);
		expect(new Set(keys)).toEqual(new Set(['reference', 'bank_code', 'amount', 'source_account', 'beneficiary_account', 'narration', 'beneficiary_name']));
		for (const key of keys) expect(message).toContain(`$tool.parameters.${key}`);
	});

	test('every BaaS tool is described for a model: what it returns, amounts in NGN as decimal strings', () => {
		for (const node of baasTools(treasury)) {
			expect({ node: node.name, type: node.parameters.descriptionType }).toEqual({ node: node.name, type: 'manual' });
			expect(String(node.parameters.toolDescription)).toMatch(/Returns|Lists/);
		}
		const withAmounts = baasTools(treasury).filter((node) => /amount|balance/.test(String(node.parameters.toolDescription)));
		for (const node of withAmounts) expect(String(node.parameters.toolDescription)).toMatch(/NGN, (a )?decimal string/);
	});

	test('is imported on n8n 2.x only (its human review of tool calls does not exist on 1.x); every other example on both', () => {
		expect(loadsOn(treasury, LINES['1'])).toBe(false);
		expect(loadsOn(treasury, LINES['2'])).toBe(true);
		const elsewhere = exampleFiles().map(readExample).filter((workflow) => workflow.id !== treasury.id);
		expect(elsewhere.filter((workflow) => !loadsOn(workflow, LINES['1'])).map((workflow) => workflow.name)).toEqual([]);
	});
});
