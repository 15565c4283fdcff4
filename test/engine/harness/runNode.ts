import { WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, IRun, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import { baasNode } from './baasNode';
import type { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';

export interface NodeRun {
	/** The node's output items (main output 0). */
	items: INodeExecutionData[];
	/** Items n8n routed to the error output (with `continueOnFail: 'errorOutput'`). */
	errorItems: INodeExecutionData[];
	json: IDataObject[];
	/** The node's error when it failed as a whole (a plain object, as n8n stores it). */
	error?: IDataObject & { message?: string; description?: string; context?: IDataObject; name?: string };
	run: IRun;
}

export interface RunNodeOptions {
	parameters: IDataObject;
	/** Credential ids by type, e.g. { baasApi: 'api-1' }. */
	credentials: Record<string, string>;
	/** The input items; one empty item when omitted. */
	items?: IDataObject[];
	/** true: On Error → Continue; 'errorOutput': On Error → Continue (using error output). */
	continueOnFail?: boolean | 'errorOutput';
	nodeType?: string;
	/** The node's version (1 when omitted: the BaaS node that offers both APIs behind Authentication). */
	typeVersion?: number;
	/** The execution's id, as n8n gives each execution its own (none when omitted). */
	executionId?: string;
}

let current: Workflow | undefined;

/** The workflow being run, for test nodes that resolve expressions the way n8n's server does. */
export function activeWorkflow(): Workflow {
	if (!current) throw new Error('No workflow is running');
	return current;
}

/** Runs Items → BaaS through n8n-core's WorkflowExecute and returns the BaaS node's result. */
export async function runNode(helper: TestCredentialsHelper, options: RunNodeOptions): Promise<NodeRun> {
	const nodeName = 'BaaS';
	const nodes: INode[] = [
		{
			id: 'items',
			name: 'Items',
			type: 'test.testItems',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.items ?? [{}]) },
		},
		{
			...baasNode(options.parameters, options.credentials, [200, 0]),
			...(options.nodeType ? { type: options.nodeType } : {}),
			...(options.typeVersion ? { typeVersion: options.typeVersion } : {}),
			...(options.continueOnFail === 'errorOutput'
				? { onError: 'continueErrorOutput' as const }
				: options.continueOnFail
					? { onError: 'continueRegularOutput' as const }
					: {}),
		},
	];
	const connections = { Items: { main: [[{ node: nodeName, type: 'main' as const, index: 0 }]] } };
	const workflowData = {
		id: 'wf-test',
		name: 'engine test',
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'engine test',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	current = workflow;
	const additionalData = buildAdditionalData(helper, workflowData);
	if (options.executionId !== undefined) additionalData.executionId = options.executionId;
	const run = await checkedRun(() => new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode: workflow.getNode('Items')! }));
	const task = run.data.resultData.runData[nodeName]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	return {
		items,
		errorItems: task?.data?.main?.[1] ?? [],
		json: items.map((item) => item.json),
		error: (task?.error ?? run.data.resultData.error) as NodeRun['error'],
		run,
	};
}

/**
 * n8n checks a resource locator's regex before any node runs, in a VM limited to 250 ms of wall time
 * (n8n-workflow's safe-regex): a busy machine can break that bound, and it did once in CI at a load of 4 on two
 * cores (a 5,000-character value against a 10-digit pattern). Nothing has run yet when it throws, so the run is
 * tried again, three tries in all; any other error, or a third timeout, is the test's to see.
 */
async function checkedRun<T>(run: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await run();
		} catch (error) {
			if (attempt >= 3 || (error as Error).message !== 'Regular expression execution timed out') throw error;
		}
	}
}
