import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, INode, INodeListSearchResult, INodeType, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import { baasNode } from './baasNode';
import type { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';

export interface ListSearchOptions {
	/** The node's current parameters (as the editor sends them). */
	parameters: IDataObject;
	/** Credential ids by type, e.g. { baasApi: 'api-1' }. */
	credentials: Record<string, string>;
	method: string;
	filter?: string;
	paginationToken?: string;
}

/**
 * Calls a resource locator's `searchListMethod` as n8n's server does when the editor opens the list: a
 * one-node workflow with the node's current parameters, a LoadOptionsContext from n8n-core, the method
 * called with the search text.
 */
export async function runListSearch(helper: TestCredentialsHelper, options: ListSearchOptions): Promise<INodeListSearchResult> {
	const node = baasNode(options.parameters, options.credentials);
	const workflow = new Workflow({
		id: 'wf-list-search',
		name: 'list search',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: {},
	});
	const workflowData = { id: 'wf-list-search', name: 'list search', nodes: [node], connections: {} } as unknown as IWorkflowBase;
	const additionalData = buildAdditionalData(helper, workflowData);
	additionalData.currentNodeParameters = options.parameters as INode['parameters'];
	const context = new LoadOptionsContext(workflow, workflow.getNode('BaaS')!, additionalData, 'parameters.accountNumber');
	const nodeType = nodeTypes.getByNameAndVersion(node.type, 1) as INodeType;
	const method = nodeType.methods?.listSearch?.[options.method];
	if (!method) throw new Error(`The node has no listSearch method ${options.method}`);
	return await method.call(context, options.filter, options.paginationToken);
}
