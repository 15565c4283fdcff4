import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { accessTokenField, baseUrlField, bearerAuthenticationFor, preAuthenticationFor, readOnlyField } from './common';

/**
 * n8n's Test signs in with the dialog's values through the nodes' credentialTest (testedBy, in
 * nodes/common/credentialTest.ts), never with a stored token as a declarative `test` would.
 */
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
		readOnlyField,
		accessTokenField,
	];

	preAuthentication = preAuthenticationFor('web');

	authenticate = bearerAuthenticationFor('web');
}
