import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentialsHelper';
import { credentialTypes } from './credentialsHelper';
import { registerNodeType } from './nodeTypes';
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

/** Runs the credential test of `type` for the stored credential `id`, as n8n's credential dialog would. */
export async function testCredential(helper: TestCredentialsHelper, type: string, id: string): Promise<CredentialTestResult> {
	const run = await runNode(helper, {
		nodeType: 'test.credentialTest',
		parameters: { credentialType: type },
		credentials: { [type]: id },
	});
	if (run.error) return { status: 'Error', message: String(run.error.message) };
	return run.json[0] as unknown as CredentialTestResult;
}
