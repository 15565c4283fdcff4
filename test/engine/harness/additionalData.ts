import { ExecutionLifecycleHooks } from 'n8n-core';
import type { IRun, IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentialsHelper';

const BASE = 'http://127.0.0.1:5678';

/** What n8n's server hands the engine, reduced to what these nodes use; URLs must be valid (see N8N-NOTES). */
export function buildAdditionalData(
	credentialsHelper: TestCredentialsHelper,
	workflowData: IWorkflowBase,
	onFinished?: (run: IRun) => void,
): IWorkflowExecuteAdditionalData {
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflowData);
	if (onFinished) hooks.addHandler('workflowExecuteAfter', (run) => onFinished(run));
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used by these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${BASE}/rest`,
		instanceBaseUrl: `${BASE}/`,
		formBaseUrl: `${BASE}/form`,
		formWaitingBaseUrl: `${BASE}/form-waiting`,
		formTestBaseUrl: `${BASE}/form-test`,
		webhookBaseUrl: `${BASE}/webhook`,
		webhookWaitingBaseUrl: `${BASE}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE}/webhook-test`,
		mcpBaseUrl: `${BASE}/mcp`,
		mcpTestBaseUrl: `${BASE}/mcp-test`,
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not used by these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}
