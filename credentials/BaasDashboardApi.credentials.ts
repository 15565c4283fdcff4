import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';

import { signIn } from '../nodes/Baas/transport/session';
import { accessTokenField, baseUrlField, bearerAuthentication, TEST_BASE_URL } from './common';

export class BaasDashboardApi implements ICredentialType {
	name = 'baasDashboardApi';

	displayName = 'BaaS Dashboard API';

	icon = { light: 'file:../nodes/Baas/baas.svg', dark: 'file:../nodes/Baas/baas.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-baas/n8n-nodes-baas/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		baseUrlField,
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			required: true,
			description: 'E-mail address of a dashboard user',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		accessTokenField,
	];

	// n8n signs in with this for the credential's Test; the node keeps its own tokens (transport/session.ts).
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return { accessToken: (await signIn(this, 'web', credentials)).token };
	}

	authenticate = bearerAuthentication;

	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL,
			url: '/api/v1/account/web/get_total_balance',
			method: 'POST',
			body: {},
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: { key: 'status', value: false, message: 'The bank did not accept the session' },
			},
		],
	};
}
