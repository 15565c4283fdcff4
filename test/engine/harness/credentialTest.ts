import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialTestFunction,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWorkflowBase,
} from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import type { TestCredentialsHelper } from './credentialsHelper';
import { credentialTypes } from './credentialsHelper';
import { registeredNodeTypes, registerNodeType } from './nodeTypes';
import { activeWorkflow, runNode } from './runNode';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Stands in for the node n8n's credential tester builds from a credential's `test.request`: it resolves the
 * request's expressions against the credential, sends it through httpRequestWithAuthentication (so
 * preAuthentication and authenticate run as in n8n), and judges the answer by the credential's `rules`.
 */
class CredentialTestRequest implements INodeType {
	description = {
		displayName: 'Credential Test',
		name: 'credentialTest',
		group: ['organization'],
		version: 1,
		description: 'Runs a credential test request',
		defaults: { name: 'Credential Test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: Object.keys(credentialTypes).map((name) => ({ name, required: false })),
		properties: [{ displayName: 'Type', name: 'credentialType', type: 'string', default: '' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const type = this.getNodeParameter('credentialType', 0) as string;
		const test = credentialTypes[type].test!;
		const credentials = await this.getCredentials(type);
		const resolvedBase = activeWorkflow().expression.getSimpleParameterValue(
			this.getNode(),
			test.request.baseURL as string,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		) as string;
		let result: CredentialTestResult = { status: 'OK', message: 'Connection successful!' };
		try {
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, type, {
				method: test.request.method ?? 'GET',
				url: `${resolvedBase}${test.request.url}`,
				json: true,
				...(test.request.body ? { body: test.request.body as IDataObject } : {}),
			})) as IDataObject;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseSuccessBody' && response[rule.properties.key] === rule.properties.value) {
					result = { status: 'Error', message: rule.properties.message };
				}
			}
		} catch (error) {
			result = { status: 'Error', message: (error as Error).message };
		}
		return [[{ json: { ...result } }]];
	}
}

registerNodeType('test.credentialTest', new CredentialTestRequest());

/**
 * The function a node names in `testedBy` for the credential, found as n8n's CredentialsTester finds it: the
 * first registered node listing the credential with a `testedBy`, its `methods.credentialTest` entry (for a
 * versioned node, from the newest version that has it).
 */
function testFunctionFor(type: string): ICredentialTestFunction | undefined {
	for (const nodeType of registeredNodeTypes()) {
		const versions: INodeType[] = 'nodeVersions' in nodeType ? Object.values(nodeType.nodeVersions) : [nodeType];
		for (const version of versions) {
			const testedBy = (version.description as INodeTypeDescription).credentials?.find((c) => c.name === type && c.testedBy)?.testedBy;
			if (typeof testedBy !== 'string') continue;
			const candidates = 'nodeVersions' in nodeType ? Object.values(nodeType.nodeVersions).reverse() : [nodeType];
			for (const candidate of candidates) {
				const found = candidate.methods?.credentialTest?.[testedBy];
				if (found) return found;
			}
		}
	}
	return undefined;
}

export interface CredentialTestOptions {
	/** The credential's name in n8n (the dialog's title); `<type> <id>` when omitted, as the test workflows name it. */
	name?: string;
}

/**
 * Runs the credential test of `type` for the stored credential `id`, as n8n's credential dialog does (n8n's
 * CredentialsTester, 1.123 and 2.41): the credential's own `test` request when it has one, otherwise the node
 * function named by `testedBy`, called with a CredentialTestContext and the dialog's values.
 */
export async function testCredential(
	helper: TestCredentialsHelper,
	type: string,
	id: string,
	options: CredentialTestOptions = {},
): Promise<CredentialTestResult> {
	if (!credentialTypes[type].test) {
		const testFunction = testFunctionFor(type);
		if (!testFunction) return { status: 'Error', message: 'No testing function found for this credential.' };
		const workflowData = { id: 'credential-test', name: 'credential test', nodes: [], connections: {} } as unknown as IWorkflowBase;
		const context = new CredentialTestContext(buildAdditionalData(helper, workflowData));
		const data = helper.stored(id);
		if (!data) throw new Error(`No credential with id ${id}`);
		const result = await testFunction.call(context, { id, name: options.name ?? `${type} ${id}`, type, data: { ...data } });
		return { status: result.status, message: result.message };
	}
	const run = await runNode(helper, {
		nodeType: 'test.credentialTest',
		parameters: { credentialType: type },
		credentials: { [type]: id },
	});
	if (run.error) return { status: 'Error', message: String(run.error.message) };
	return run.json[0] as unknown as CredentialTestResult;
}
