import type { SandboxHandle } from '../../sandbox';

/**
 * The two credentials the examples name (by these ids), pointing at a sandbox bank, in the form
 * `n8n import:credentials` takes (it encrypts the data on import).
 */
export function sandboxCredentials(bank: SandboxHandle) {
	return [
		{
			id: 'BaasApiSandbox01',
			name: 'BaaS API (sandbox)',
			type: 'baasApi',
			data: {
				baseUrl: bank.url,
				clientId: bank.seed.clientId,
				clientSecret: bank.seed.clientSecret,
				webhookSecret: bank.seed.webhookSecret,
				accessToken: '',
			},
		},
		{
			id: 'BaasDashSandbox1',
			name: 'BaaS Dashboard API (sandbox)',
			type: 'baasDashboardApi',
			data: { baseUrl: bank.url, email: bank.seed.dashboardEmail, password: bank.seed.dashboardPassword, accessToken: '' },
		},
	];
}
