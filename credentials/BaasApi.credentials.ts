import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { accessTokenField, baseUrlField, bearerAuthenticationFor, preAuthenticationFor, readOnlyField } from './common';

/**
 * n8n's Test signs in with the dialog's values through the nodes' credentialTest (testedBy, in
 * nodes/common/credentialTest.ts), never with a stored token as a declarative `test` would.
 */
export class BaasApi implements ICredentialType {
	name = 'baasApi';

	displayName = 'BaaS API';

	icon = { light: 'file:../nodes/Baas/baas.svg', dark: 'file:../nodes/Baas/baas.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-baas/n8n-nodes-baas/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		baseUrlField,
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Public identifier of the API client, from the dashboard: Security → API client',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Secret of the API client, from the dashboard: Security → API client',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Key the bank signs webhook deliveries with (X-Service-Signature). Required by the BaaS Trigger; the action node does not use it.',
		},
		readOnlyField,
		accessTokenField,
	];

	preAuthentication = preAuthenticationFor('api');

	authenticate = bearerAuthenticationFor('api');
}
