import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';

import { signIn } from '../nodes/Baas/transport/session';
import { accessTokenField, baseUrlField, bearerAuthentication, TEST_BASE_URL } from './common';

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
		accessTokenField,
	];

	// n8n signs in with this for the credential's Test; the node keeps its own tokens (transport/session.ts).
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return { accessToken: (await signIn(this, 'api', credentials)).token };
	}

	authenticate = bearerAuthentication;

	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL,
			url: '/api/v1/security/api/validate_token',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: { key: 'status', value: false, message: 'The bank did not accept the token' },
			},
		],
	};
}
