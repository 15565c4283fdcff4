import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceDescriptions, resourceSelectors } from './actions/resources';
import { AUTHENTICATION_PROPERTY, CREDENTIALS_BY_AUTHENTICATION } from './authentication';
import { router } from './actions/router';
import { searchBanks } from './methods/bankSearch';
import { searchAccounts } from './methods/listSearch';

export class Baas implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BaaS',
		name: 'baas',
		icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Work with your Banking-as-a-Service accounts: balances, transactions, settlements, transfers, webhooks and dashboard team',
		defaults: { name: 'BaaS' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: CREDENTIALS_BY_AUTHENTICATION,
		properties: [
			AUTHENTICATION_PROPERTY,
			...resourceSelectors,
			...resourceDescriptions,
		],
	};

	methods = {
		listSearch: { searchAccounts, searchBanks },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
