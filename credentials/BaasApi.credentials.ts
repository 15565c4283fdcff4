import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';

import { exchangeForToken } from '../nodes/Baas/transport/tokenExchange';
import { accessTokenField, baseUrlField, bearerAuthentication, TEST_BASE_URL } from './common';

export class BaasApi implements ICredentialType {
	name = 'baasApi';

	displayName = 'BaaS API';

	icon = { light: 'file:../nodes/Baas/baas.svg', dark: 'file:../nodes/Baas/baas.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-baas/n8n-nodes-baas#credentials';

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

	// n8n calls this when the stored token is empty or a request answered 401, so one token serves every item.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const accessToken = await exchangeForToken(this, credentials.baseUrl as string, 'integration', {
			client_id: credentials.clientId as string,
			client_secret: credentials.clientSecret as string,
		});
		return { accessToken };
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
