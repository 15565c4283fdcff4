import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, ILoadOptionsFunctions, INode, INodePropertyOptions, INodeType, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import { baasNode } from './baasNode';
import type { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes, PACKAGE_PREFIX } from './nodeTypes';

export interface LoadOptionsCall {
	/** The node's current parameters, as the editor sends them. */
	parameters: IDataObject;
	/** Credential ids by type, e.g. { baasApi: 'api-1' }. */
	credentials: Record<string, string>;
	/** Path of the parameter being filled, e.g. 'parameters.bankCode'. */
	path?: string;
}

/**
 * Builds the context n8n's server gives a node's `loadOptions` methods when the editor opens a dropdown: a
 * one-node workflow holding the current parameters, and n8n-core's LoadOptionsContext. (Resource locator
 * lists: listSearch.ts.)
 */
function loadOptionsContext(helper: TestCredentialsHelper, call: LoadOptionsCall): ILoadOptionsFunctions {
	const node = baasNode(call.parameters, call.credentials);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData(helper, { id: 'wf-load-options', nodes: [node], connections: {} } as unknown as IWorkflowBase);
	additionalData.currentNodeParameters = call.parameters as INode['parameters'];
	return new LoadOptionsContext(workflow, node, additionalData, call.path ?? 'parameters.bankCode');
}

/** Runs methods.loadOptions[name] as the editor would. */
export async function loadOptions(helper: TestCredentialsHelper, name: string, call: LoadOptionsCall): Promise<INodePropertyOptions[]> {
	const method = (nodeTypes.getByName(`${PACKAGE_PREFIX}.baas`) as INodeType).methods?.loadOptions?.[name];
	if (!method) throw new Error(`The node has no loadOptions method ${name}`);
	return await method.call(loadOptionsContext(helper, call));
}
