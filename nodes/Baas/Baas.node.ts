import type { INodeTypeBaseDescription, IVersionedNodeType } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { actionNodeDescription, BaasActionNode } from '../common/actionNode';
import { propertiesFor } from '../common/apiDescription';
import { resourceDescriptions, resourceSelector } from '../common/actions/resources';
import { NAME_CHECK_CREDENTIAL } from '../common/actions/transfer/safetyFields';
import { AUTHENTICATION_PROPERTY, CREDENTIALS_BY_AUTHENTICATION } from '../common/authentication';
import { BAAS_DESCRIPTION } from '../common/nodeDescription';

/**
 * The BaaS node, for the API client (the integration API). Version 2 has one credential, so n8n's editor
 * preselects one that can run the picked action; the dashboard's operations are the BaaS Dashboard node's.
 * Version 1 offered both APIs behind an Authentication choice; it stays so saved workflows load and run
 * unchanged, but n8n's editor then preselected the most recently saved credential of either type, whatever
 * the action.
 */
export class Baas extends VersionedNodeType {
	constructor() {
		const base: INodeTypeBaseDescription = {
			displayName: 'BaaS',
			name: 'baas',
			icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
			group: ['transform'],
			description: BAAS_DESCRIPTION,
			defaultVersion: 2,
		};
		const versions: IVersionedNodeType['nodeVersions'] = {
			1: new BaasActionNode(
				actionNodeDescription(base, {
					version: 1,
					credentials: CREDENTIALS_BY_AUTHENTICATION,
					properties: [AUTHENTICATION_PROPERTY, resourceSelector, ...resourceDescriptions],
				}),
			),
			2: new BaasActionNode(
				actionNodeDescription(base, {
					version: 2,
					// The dashboard credential is asked for only by Send money's Check Beneficiary Name.
					credentials: [{ name: 'baasApi', required: true }, NAME_CHECK_CREDENTIAL],
					properties: propertiesFor('apiClient'),
				}),
			),
		};
		super(versions, base);
	}
}
