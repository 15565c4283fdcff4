/**
 * Every path of the bank's API, in one table (paths are under {base_url}/api/v1). Operations name a route;
 * only transport/ turns a route into a URL. `api` paths take the API-client token, `web` paths the dashboard one.
 * `safeToRetry` marks requests that change nothing at the bank, so a lost answer may be asked again.
 */
export type ApiVariant = 'api' | 'web';

export interface Route {
	method: 'GET' | 'POST';
	paths: Partial<Record<ApiVariant, string>>;
	safeToRetry: boolean;
}

const read = (paths: Route['paths'], method: Route['method'] = 'POST'): Route => ({
	method,
	paths,
	safeToRetry: true,
});
const write = (paths: Route['paths']): Route => ({ method: 'POST', paths, safeToRetry: false });

export const API_PREFIX = '/api/v1';

export const ROUTES = {
	generateToken: write({ api: '/security/api/generate_token' }),
	login: write({ web: '/auth/web/login' }),
	validateToken: read({ api: '/security/api/validate_token' }, 'GET'),
	verifySession: read({ web: '/auth/web/verify' }),

	createCustomerAccount: write({ api: '/account/api/create_customer_account' }),
	getAccountBalance: read({
		api: '/account/api/get_account_balance',
		web: '/account/web/get_account_balance',
	}),
	fetchCustomerAccounts: read({
		api: '/account/api/fetch_customer_accounts',
		web: '/account/web/fetch_customer_accounts',
	}),
	fetchAccountSummaries: read({ web: '/account/web/fetch_account_summaries' }),
	fetchAccountCollections: read({ web: '/account/web/fetch_account_collections' }),
	getTotalAccountMetrics: read({ web: '/account/web/get_total_account_metrics' }),
	getTotalBalance: read({ web: '/account/web/get_total_balance' }),
	updateAccountStatus: write({ web: '/account/web/update_account_status' }),

	fetchTransactions: read({
		api: '/transaction/api/fetch_transactions',
		web: '/transaction/web/fetch_transactions',
	}),
	fetchSettlementTransactions: read({ web: '/transaction/web/fetch_settlement_transactions' }),

	fetchBanks: read({ api: '/transaction/transfer/api/fetch_banks' }),
	nameEnquiry: read({ web: '/transaction/transfer/web/name_enquiry' }),
	fundsTransfer: write({ api: '/transaction/transfer/api/funds_transfer' }),
	transactionStatus: read({ api: '/transaction/transfer/api/transaction_status' }),

	createWebhook: write({ api: '/customer/api/create_webhook' }),

	fetchMembers: read({ web: '/auth/web/fetch_members' }),
	getMemberDetail: read({ web: '/auth/web/get_member_detail' }),
	addMember: write({ web: '/auth/web/add_member' }),
	fetchPermissions: read({ web: '/auth/web/fetch_permissions' }),
	createRole: write({ web: '/auth/web/create_role' }),
	deleteRole: write({ web: '/auth/web/delete_role' }),
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** The absolute URL of a route for a credential's base URL, or undefined when the route has no such variant. */
export function routeUrl(baseUrl: string, routeName: RouteName, variant: ApiVariant): string | undefined {
	const path = (ROUTES[routeName] as Route).paths[variant];
	if (path === undefined) return undefined;
	return `${baseUrl.trim().replace(/\/+$/, '')}${API_PREFIX}${path}`;
}
