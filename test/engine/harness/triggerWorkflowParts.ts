/**
 * The n8n objects a "BaaS Trigger → NoOp" workflow is served with (see triggerWorkflow.ts): its nodes, its
 * Workflow, the server's additional data with webhook URLs on the test server, and the webhook and hook contexts.
 */
import { HookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	IWebhookData,
	IWebhookDescription,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { BaasTrigger } from '../../../nodes/BaasTrigger/BaasTrigger.node';
import { buildAdditionalData } from './additionalData';
import type { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes, PACKAGE_PREFIX, registerNodeType } from './nodeTypes';

export const TRIGGER_TYPE = `${PACKAGE_PREFIX}.baasTrigger`;
export const trigger = new BaasTrigger();
registerNodeType(TRIGGER_TYPE, trigger);

export const TRIGGER_NAME = 'BaaS Trigger';
export const NEXT_NAME = 'Next';

/** What tells one trigger workflow from another. */
export interface TriggerSpec {
	workflowId: string;
	webhookId: string;
	/** The test server's origin, e.g. http://127.0.0.1:4567. */
	base: string;
	parameters: IDataObject;
	/** baasApi credential id in the helper. */
	credentialId: string;
	active: boolean;
}

function triggerNode(spec: TriggerSpec): INode {
	return {
		id: 'trigger-node',
		name: TRIGGER_NAME,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: spec.webhookId,
		parameters: spec.parameters as INode['parameters'],
		credentials: { baasApi: { id: spec.credentialId, name: 'BaaS API' } },
	};
}

function workflowData(spec: TriggerSpec): IWorkflowBase {
	return {
		id: spec.workflowId,
		name: 'trigger test',
		active: spec.active,
		nodes: [triggerNode(spec)],
		connections: {},
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
}

export function triggerWorkflow(spec: TriggerSpec, staticData: IDataObject): Workflow {
	const nodes: INode[] = [
		triggerNode(spec),
		{ id: 'next-node', name: NEXT_NAME, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
	];
	return new Workflow({
		id: spec.workflowId,
		name: 'trigger test',
		nodes,
		connections: { [TRIGGER_NAME]: { main: [[{ node: NEXT_NAME, type: 'main', index: 0 }]] } },
		active: spec.active,
		nodeTypes,
		staticData,
		settings: { executionOrder: 'v1' },
	});
}

/** The server's additional data, with webhook base URLs pointing at the test server. */
export function serverAdditionalData(
	credentials: TestCredentialsHelper,
	spec: TriggerSpec,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		...buildAdditionalData(credentials, workflowData(spec)),
		instanceBaseUrl: `${spec.base}/`,
		webhookBaseUrl: `${spec.base}/webhook`,
		webhookTestBaseUrl: `${spec.base}/webhook-test`,
		webhookWaitingBaseUrl: `${spec.base}/webhook-waiting`,
		...extra,
	};
}

export function webhookData(spec: TriggerSpec, additionalData: IWorkflowExecuteAdditionalData, isTest: boolean): IWebhookData {
	return {
		httpMethod: 'POST',
		node: TRIGGER_NAME,
		path: `${spec.webhookId}/webhook`,
		webhookDescription: trigger.description.webhooks![0] as IWebhookDescription,
		workflowId: spec.workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId: spec.webhookId,
		isTest,
	};
}

/** The context n8n runs the trigger's webhookMethods in (activation, or "Listen for test event" when `isTest`). */
export function hookContext(
	credentials: TestCredentialsHelper,
	spec: TriggerSpec,
	workflow: Workflow,
	mode: WorkflowExecuteMode,
	isTest: boolean,
): HookContext {
	const additionalData = serverAdditionalData(credentials, spec);
	return new HookContext(
		workflow,
		workflow.getNode(TRIGGER_NAME)!,
		additionalData,
		mode,
		isTest ? 'manual' : 'activate',
		webhookData(spec, additionalData, isTest),
	);
}
