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

export const READ_ONLY_API_CREDENTIAL = { id: 'BaasApiReadOnly1', name: 'BaaS API (sandbox, read-only)' };
export const READ_ONLY_DASHBOARD_CREDENTIAL = { id: 'BaasDashReadOnly', name: 'BaaS Dashboard API (sandbox, read-only)' };

/**
 * The same sign-ins with Read Only on, which the MCP server example's tools carry: a tool that moves money, wired
 * to it by mistake, is refused before any request. Apart from sandboxCredentials, which every e2e stack imports:
 * the editor tests there expect the sandbox's to be the only credential of its type (test/e2e/support/
 * editorScenario.ts). `npm run dev` imports these with the examples (devExamples.ts).
 */
export function readOnlySandboxCredentials(bank: SandboxHandle) {
	const [api, dashboard] = sandboxCredentials(bank);
	return [
		{ ...api, ...READ_ONLY_API_CREDENTIAL, data: { ...api.data, readOnly: true } },
		{ ...dashboard, ...READ_ONLY_DASHBOARD_CREDENTIAL, data: { ...dashboard.data, readOnly: true } },
	];
}
