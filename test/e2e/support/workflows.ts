import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../../../scripts/n8n/paths';

type Json = Record<string, unknown>;
interface WorkflowNode extends Json {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Json;
	webhookId?: string;
	credentials?: Json;
}
interface WorkflowJson extends Json {
	id: string;
	nodes: WorkflowNode[];
}

export const EXAMPLES = {
	collection: 'collection-alert-slack-sheets.json',
	payouts: 'payouts-from-sheet.json',
	report: 'daily-report-slack.json',
} as const;
export type ExampleName = keyof typeof EXAMPLES;

export interface PreparedWorkflow {
	id: string;
	json: WorkflowJson;
	/** Path of the production webhook that starts it (the trigger's, or the webhook that replaced a manual/schedule trigger). */
	webhookPath: string;
}
export type PreparedWorkflows = Record<ExampleName, PreparedWorkflow>;

export function loadExample(name: ExampleName): WorkflowJson {
	return JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples', EXAMPLES[name]), 'utf8')) as WorkflowJson;
}

export function replaceNode(workflow: WorkflowJson, name: string, make: (old: WorkflowNode) => Partial<WorkflowNode>) {
	const index = workflow.nodes.findIndex((node) => node.name === name);
	if (index < 0) throw new Error(`example ${workflow.id} has no node "${name}"`);
	const old = workflow.nodes[index];
	const { credentials: _credentials, ...kept } = old;
	workflow.nodes[index] = { ...kept, ...make(old) } as WorkflowNode;
}

/** A Webhook node in place of a manual or schedule trigger, so a test can start the workflow with a POST. */
export const webhookTrigger = (pathName: string, webhookId: string) => () => ({
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId,
	parameters: { httpMethod: 'POST', path: pathName, responseMode: 'onReceived', options: {} },
});

/** An HTTP request to the receiver whose JSON body carries `fields` (name → n8n expression). */
const postTo = (url: string, fields: Record<string, unknown>) => () => ({
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		method: 'POST',
		url,
		sendBody: true,
		bodyParameters: { parameters: Object.entries(fields).map(([name, value]) => ({ name, value })) },
		options: {},
	},
});

const sheetColumns = (node: WorkflowNode) => (node.parameters.columns as { value: Json }).value;

/** The e2e variant lives beside the untouched example (imported too, for the editor screenshot). */
function asE2eCopy(workflow: WorkflowJson): WorkflowJson {
	return { ...workflow, id: `E2${workflow.id.slice(2)}`, name: `${String(workflow.name)} (e2e)` };
}

/**
 * The examples as the e2e tests run them: sheets and chat are swapped for HTTP requests to the local
 * receiver (same column and text expressions), and manual/schedule triggers for webhooks the test can call.
 * Our own nodes, their parameters and credentials stay exactly as shipped.
 */
export function prepareWorkflows(receiverUrl: string): PreparedWorkflows {
	const collection = asE2eCopy(loadExample('collection'));
	replaceNode(collection, 'Append to Sheet', (old) => postTo(`${receiverUrl}/sheet`, sheetColumns(old))());
	replaceNode(collection, 'Post to Chat', (old) => postTo(`${receiverUrl}/chat`, { text: old.parameters.text })());
	const trigger = collection.nodes.find((node) => node.type.endsWith('.baasTrigger'))!;

	const payouts = asE2eCopy(loadExample('payouts'));
	replaceNode(payouts, 'Start', webhookTrigger('e2e-payouts', 'a1e2e000-0000-4000-8000-000000000001'));
	replaceNode(payouts, 'Read Payout Rows', () => ({
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: { url: `${receiverUrl}/rows`, options: {} },
	}));
	replaceNode(payouts, 'Write Outcome', (old) => postTo(`${receiverUrl}/outcomes`, sheetColumns(old))());

	const report = asE2eCopy(loadExample('report'));
	replaceNode(report, 'Every Morning', webhookTrigger('e2e-report', 'a1e2e000-0000-4000-8000-000000000002'));
	replaceNode(report, 'Post Report', (old) => postTo(`${receiverUrl}/chat`, { text: old.parameters.text })());

	return {
		collection: { id: collection.id, json: collection, webhookPath: `webhook/${trigger.webhookId}/webhook` },
		payouts: { id: payouts.id, json: payouts, webhookPath: 'webhook/e2e-payouts' },
		report: { id: report.id, json: report, webhookPath: 'webhook/e2e-report' },
	};
}
