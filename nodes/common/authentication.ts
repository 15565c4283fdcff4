import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/** Which API a node talks to (API client → /api/, dashboard user → /web/); shared by the BaaS node and the Poll Trigger. */
export const AUTHENTICATION_PROPERTY: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'API Client',
			value: 'apiClient',
			description: 'Client ID and secret of your backend integration (the /api/ endpoints)',
		},
		{
			name: 'Dashboard User',
			value: 'dashboardUser',
			description: 'E-mail and password of a dashboard user (the /web/ endpoints)',
		},
	],
	default: 'apiClient',
};

/** The label the Authentication list shows for a value ("API Client"). */
export function authenticationLabel(value: string): string {
	return AUTHENTICATION_PROPERTY.options?.find((option) => 'value' in option && option.value === value)?.name ?? value;
}

/** The credential each Authentication choice asks for. */
export const API_CLIENT_CREDENTIAL = { name: 'baasApi', required: true, displayOptions: { show: { authentication: ['apiClient'] } } };
export const DASHBOARD_USER_CREDENTIAL = { name: 'baasDashboardApi', required: true, displayOptions: { show: { authentication: ['dashboardUser'] } } };
export const CREDENTIALS_BY_AUTHENTICATION: INodeCredentialDescription[] = [API_CLIENT_CREDENTIAL, DASHBOARD_USER_CREDENTIAL];
