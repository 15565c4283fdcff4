/**
 * The three ways a BaaS action node is added: BaaS version 2 (the API client, the picker's default), BaaS
 * Dashboard (the dashboard user), and BaaS version 1 (both APIs behind Authentication), which saved workflows
 * still use. Each runs its operations against the sandbox through the same router and transport.
 */
import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { PACKAGE_PREFIX } from './harness/nodeTypes';
import { rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';

const POOL = '0823000001';
const BAAS_V2 = { nodeType: `${PACKAGE_PREFIX}.baas`, typeVersion: 2 };
const DASHBOARD_NODE = { nodeType: `${PACKAGE_PREFIX}.baasDashboard`, typeVersion: 1 };

describe('the action nodes', () => {
	const fx = useBankFixture();
	const paths = (since: number) => fx.bank.requests().slice(since).map((entry) => entry.path);

	test('BaaS (version 2) runs with its one credential and no Authentication parameter, on the /api/ endpoints', async () => {
		const since = fx.bank.requests().length;
		const run = await runNode(fx.credentials, {
			...BAAS_V2,
			parameters: { resource: 'account', operation: 'getBalance', accountNumber: rl(POOL) },
			credentials: API,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ account_number: POOL, status: 'active' })]);
		expect(paths(since)).toEqual(['/api/v1/security/api/generate_token', '/api/v1/account/api/get_account_balance']);
	});

	test('BaaS Dashboard runs dashboard operations with the dashboard credential, on the /web/ endpoints', async () => {
		const since = fx.bank.requests().length;
		const total = await runNode(fx.credentials, { ...DASHBOARD_NODE, parameters: { resource: 'account', operation: 'getTotalBalance' }, credentials: DASHBOARD });
		expect(total.error).toBeUndefined();
		expect(total.json[0].total_balance).toMatch(/^\d+\.\d+$/);
		const members = await runNode(fx.credentials, { ...DASHBOARD_NODE, parameters: { resource: 'member', operation: 'getAll', returnAll: true }, credentials: DASHBOARD });
		expect(members.error).toBeUndefined();
		expect(members.json.length).toBeGreaterThan(0);
		const balance = await runNode(fx.credentials, {
			...DASHBOARD_NODE,
			parameters: { resource: 'account', operation: 'getBalance', accountNumber: rl(POOL) },
			credentials: DASHBOARD,
		});
		expect(balance.json).toEqual([expect.objectContaining({ account_number: POOL })]);
		expect(paths(since).filter((path) => !path.endsWith('/login'))).toEqual([
			'/api/v1/account/web/get_total_balance',
			// A first page shorter than asked may be a cap: Return All asks once more before calling the list whole.
			'/api/v1/auth/web/fetch_members',
			'/api/v1/auth/web/fetch_members',
			'/api/v1/account/web/get_account_balance',
		]);
	});

	test('an operation of the other API, from a hand-edited workflow, is refused before any request, naming the node to use', async () => {
		await expectRejectedWithoutRequest(
			fx,
			{ ...DASHBOARD_NODE, parameters: { resource: 'transfer', operation: 'create', referenceNumber: 'never-sent-1' }, credentials: DASHBOARD },
			/Transfer → Create is offered only with Authentication: API Client/,
		);
		const run = await runNode(fx.credentials, { ...BAAS_V2, parameters: { resource: 'member', operation: 'getAll' }, credentials: API });
		expect(run.error?.message).toBe('Member is offered only with Authentication: Dashboard User');
		expect(run.error?.description).toMatch(/^Use the BaaS Dashboard node for it .* Nothing was sent to the bank\.$/);
	});

	test('BaaS version 1, as saved workflows hold it, still runs both APIs by its Authentication', async () => {
		const web = await runNode(fx.credentials, {
			parameters: { authentication: 'dashboardUser', resource: 'account', operation: 'getTotalBalance' },
			credentials: DASHBOARD,
		});
		expect(web.error).toBeUndefined();
		expect(web.json[0].total_balance).toMatch(/^\d+\.\d+$/);
		const api = await runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'bank', operation: 'getAll', returnAll: true },
			credentials: API,
		});
		expect(api.error).toBeUndefined();
		expect(api.json.map((bank) => bank.code)).toContain('090823');
	});
});
