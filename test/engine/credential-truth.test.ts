/**
 * Issue 27, item 1: the credential's Test signs in with the values it is given, never with a token stored
 * earlier, and shows the bank's refusal; a token belongs to the Base URL and secret it came from, so an edited
 * credential signs in again at its next request, whoever makes it (our nodes, or a node using n8n's stored token
 * the way the HTTP Request node does with a predefined credential type).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { clearSignInGuard } from '../../nodes/common/transport/session';
import { API, DASHBOARD, startBankFixture, useBankFixture } from './harness/bankFixture';
import { testCredential } from './harness/credentialTest';
import { registerNodeType } from './harness/nodeTypes';
import { startRecordingProxy } from './harness/recordingProxy';
import { runNode } from './harness/runNode';

const fx = useBankFixture({}, () => clearSignInGuard());

const SIGN_IN = { baasApi: '/generate_token', baasDashboardApi: '/auth/web/login' } as const;
const REFUSAL = { baasApi: /Invalid client credentials \[41\]/, baasDashboardApi: /Invalid email or password \[41\]/ } as const;
const SECRET_FIELD = { baasApi: 'clientSecret', baasDashboardApi: 'password' } as const;

/** Refused sign-ins the bank answered (41 on its sign-in route). */
const refusedSignIns = (type: keyof typeof SIGN_IN) =>
	fx.bank.requests().filter((r) => r.path.endsWith(SIGN_IN[type]) && r.response_code === '41').length;

function balance(type: keyof typeof SIGN_IN, id: string) {
	return runNode(fx.credentials, {
		parameters: {
			authentication: type === 'baasApi' ? 'apiClient' : 'dashboardUser',
			resource: 'account',
			operation: 'getBalance',
			accountNumber: fx.bank.seed.accounts.find((a) => a.status === 'active')!.account_number,
		},
		credentials: { [type]: id },
	});
}

/**
 * A node that uses the credential as n8n's HTTP Request node does with "predefined credential type": n8n's
 * httpRequestWithAuthentication with the stored credential, so n8n's preAuthentication, its stored token and
 * the credential's authenticate decide what is sent.
 */
class StoredTokenRequest implements INodeType {
	description = {
		displayName: 'Stored Token Request',
		name: 'storedTokenRequest',
		group: ['transform'],
		version: 1,
		description: 'Calls the bank with n8n\'s own credential handling',
		defaults: { name: 'Stored Token Request' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [
			{ name: 'baasApi', required: false },
			{ name: 'baasDashboardApi', required: false },
		],
		properties: [{ displayName: 'Type', name: 'credentialType', type: 'string', default: '' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const type = this.getNodeParameter('credentialType', 0) as string;
		const { baseUrl } = await this.getCredentials(type);
		const route = type === 'baasApi' ? { method: 'GET' as const, url: '/api/v1/security/api/validate_token' } : { method: 'POST' as const, url: '/api/v1/account/web/get_total_balance' };
		const answer = (await this.helpers.httpRequestWithAuthentication.call(this, type, {
			...route,
			url: `${String(baseUrl)}${route.url}`,
			json: true,
			...(route.method === 'POST' ? { body: {} } : {}),
		})) as IDataObject;
		return [[{ json: answer }]];
	}
}
registerNodeType('test.storedTokenRequest', new StoredTokenRequest());

const storedTokenRequest = (type: string, id: string) =>
	runNode(fx.credentials, { nodeType: 'test.storedTokenRequest', parameters: { credentialType: type }, credentials: { [type]: id } });

/** Saves the credential `id` with `changes`, keeping every other stored value (the stored token too), as n8n's dialog saves. */
function edit(id: string, type: string, changes: Record<string, string>) {
	fx.credentials.add(id, type, { ...fx.credentials.stored(id)!, ...changes });
}

describe("the credential's Test signs in with the dialog's values (issue 27, item 1)", () => {
	for (const [type, good] of [
		['baasApi', API.baasApi],
		['baasDashboardApi', DASHBOARD.baasDashboardApi],
	] as const) {
		test(`${type}: a wrong secret saved over a credential that holds a good token fails the Test with the bank's refusal`, async () => {
			const id = `${type}-edited`;
			fx.credentials.add(id, type, { ...fx.credentials.stored(good)!, accessToken: '' });
			// The credential works and n8n (and the node) hold a good token for it.
			expect(await testCredential(fx.credentials, type, id)).toMatchObject({ status: 'OK' });
			expect((await balance(type, id)).error).toBeUndefined();
			expect((await storedTokenRequest(type, id)).error).toBeUndefined();

			edit(id, type, { [SECRET_FIELD[type]]: 'mistyped-Secret-77' });
			const before = refusedSignIns(type);
			const result = await testCredential(fx.credentials, type, id, { name: 'BaaS (edited)' });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(REFUSAL[type]);
			expect(result.message).toContain('"BaaS (edited)"');
			expect(result.message).not.toContain('mistyped-Secret-77');
			// The Test asked the bank (one sign-in, refused), not the token held from before.
			expect(refusedSignIns(type) - before).toBe(1);
		});

		test(`${type}: every Test of a good credential signs in, though a token is held and stored`, async () => {
			expect((await balance(type, good)).error).toBeUndefined();
			const before = fx.count(SIGN_IN[type]);
			expect(await testCredential(fx.credentials, type, good)).toMatchObject({ status: 'OK' });
			expect(await testCredential(fx.credentials, type, good)).toMatchObject({ status: 'OK' });
			expect(fx.count(SIGN_IN[type]) - before).toBe(2);
		});
	}

	test('a Base URL where no bank answers fails the Test with what to check', async () => {
		fx.credentials.add('api-nowhere', 'baasApi', { ...fx.credentials.stored(API.baasApi)!, baseUrl: 'http://127.0.0.1:9' });
		const result = await testCredential(fx.credentials, 'baasApi', 'api-nowhere');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Could not reach the bank at http:\/\/127\.0\.0\.1:9 .*Check the Base URL/);
	});
});

describe('a stored token is tied to the secret and Base URL it came from (issue 27, item 1)', () => {
	for (const [type, good] of [
		['baasApi', API.baasApi],
		['baasDashboardApi', DASHBOARD.baasDashboardApi],
	] as const) {
		test(`${type}: after the secret is edited, the next request of the node and of n8n's own credential handling signs in again`, async () => {
			const id = `${type}-secret-edit`;
			fx.credentials.add(id, type, { ...fx.credentials.stored(good)!, accessToken: '' });
			expect((await balance(type, id)).error).toBeUndefined();
			expect((await storedTokenRequest(type, id)).error).toBeUndefined();
			expect(fx.credentials.stored(id)!.accessToken).not.toBe('');

			edit(id, type, { [SECRET_FIELD[type]]: 'rotated-away-Secret-5' });
			const before = refusedSignIns(type);
			const node = await balance(type, id);
			expect(node.error).toMatchObject({ context: { kind: 'signInRefused' } });
			// n8n's stored token came from the old secret: it is not sent for the new one.
			const generic = await storedTokenRequest(type, id);
			expect(generic.error?.message).toMatch(REFUSAL[type]);
			expect(refusedSignIns(type) - before).toBe(1);
			expect(fx.bank.requests().filter((r) => r.status === 423)).toHaveLength(0);
		});
	}

	test("after the Base URL is edited, n8n's stored token is not sent to the new address: it signs in there", async () => {
		const other = await startBankFixture();
		const front = await startRecordingProxy(other.bank.url);
		try {
			fx.credentials.add('api-url-edit', 'baasApi', { ...fx.credentials.stored(API.baasApi)!, accessToken: '' });
			expect((await storedTokenRequest('baasApi', 'api-url-edit')).error).toBeUndefined();
			const oldToken = String(fx.credentials.stored('api-url-edit')!.accessToken).split('~').pop();
			// The other bank knows an API client with the same ID and secret, so only the token could be wrong there.
			edit('api-url-edit', 'baasApi', { baseUrl: front.url, clientId: other.bank.seed.clientId, clientSecret: other.bank.seed.clientSecret });
			const run = await storedTokenRequest('baasApi', 'api-url-edit');
			expect(run.error).toBeUndefined();
			expect(front.seen.filter((r) => r.authorization?.includes(oldToken!))).toEqual([]);
			expect(front.seen.map((r) => r.path.split('/').pop())).toEqual(['validate_token', 'generate_token', 'validate_token']);
		} finally {
			await front.close();
			await other.bank.close();
		}
	});
});
