import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { searchAccounts } from './methods/accountSearch';
import { baasSignIn, CREDENTIAL_TEST } from './credentialTest';
import { searchBanks } from './methods/bankSearch';
import { searchSendingAccounts } from './methods/sendingAccountSearch';
import { SUBTITLE } from './nodeDescription';

type ActionNodeParts = Pick<INodeTypeDescription, 'version' | 'credentials' | 'properties'>;

/**
 * The description every BaaS action node has, around its own version, credentials and properties. Each
 * credential is tested by the node's credentialTest (credentialTest.ts).
 */
export function actionNodeDescription(base: INodeTypeBaseDescription, parts: ActionNodeParts): INodeTypeDescription {
	return {
		...base,
		...parts,
		credentials: parts.credentials?.map((credential) => ({ ...credential, testedBy: CREDENTIAL_TEST })),
		subtitle: SUBTITLE,
		defaults: { name: base.displayName },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
	};
}

/** A BaaS action node: the account and bank pickers, and every item through the one router (actions/router.ts). */
export class BaasActionNode implements INodeType {
	methods = {
		listSearch: { searchAccounts, searchBanks, searchSendingAccounts },
		credentialTest: { [CREDENTIAL_TEST]: baasSignIn },
	};

	constructor(public description: INodeTypeDescription) {}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
