import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceDescriptions, resourceSelector } from './actions/resources';
import { router } from './actions/router';
import { searchBanks } from './methods/bankSearch';
import { searchAccounts } from './methods/listSearch';
import { BAAS_DESCRIPTION, SUBTITLE } from './nodeDescription';

export class Baas implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BaaS',
		name: 'baas',
		icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: SUBTITLE,
		description: BAAS_DESCRIPTION,
		defaults: { name: 'BaaS' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// '@version' makes n8n's editor skip its shortcut that, when a user has a single BaaS credential, sets
		// Authentication to that credential's on a new node whatever the operation needs; the operation's
		// own Authentication default then decides which credential type is offered.
		credentials: [
			{ name: 'baasApi', required: true, displayOptions: { show: { authentication: ['apiClient'], '@version': [1] } } },
			{
				name: 'baasDashboardApi',
				required: true,
				displayOptions: { show: { authentication: ['dashboardUser'], '@version': [1] } },
			},
		],
		properties: [resourceSelector, ...resourceDescriptions],
	};

	methods = {
		listSearch: { searchAccounts, searchBanks },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
