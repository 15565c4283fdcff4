import { boot, Client, expectError, expectOk, sleep, V1 } from './helpers';
import type { SandboxHandle } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 50 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

function claims(token: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('integration tokens', () => {
	it('issues an HS256 JWT of typ api that lasts 3600 s', async () => {
		const r = await c.post<{ token: string; expires_in: number }>(`${V1}/security/api/generate_token`, {
			client_id: 'sandbox_client_id',
			client_secret: sb.seed.clientSecret,
		});
		expectOk(r);
		expect(r.body.data.expires_in).toBe(3600);
		const [head] = r.body.data.token.split('.');
		expect(JSON.parse(Buffer.from(head, 'base64url').toString('utf8'))).toMatchObject({ alg: 'HS256' });
		const p = claims(r.body.data.token);
		expect(p.typ).toBe('api');
		expect((p.exp as number) - (p.iat as number)).toBe(3600);
	});

	it('refuses a wrong secret with 401 / 41 and never echoes the secret', async () => {
		const r = await c.post(`${V1}/security/api/generate_token`, { client_id: sb.seed.clientId, client_secret: 'wrong-secret-xyz' });
		expectError(r, 401, '41', 'Invalid client credentials');
		expect(JSON.stringify(r.body)).not.toContain('wrong-secret-xyz');
		const unknown = await c.post(`${V1}/security/api/generate_token`, { client_id: 'nobody', client_secret: sb.seed.clientSecret });
		expectError(unknown, 401, '41', 'Invalid client credentials');
	});

	it('validate_token (GET) returns the token metadata with zone-less timestamps', async () => {
		const r = await c.request<Record<string, unknown>>('GET', `${V1}/security/api/validate_token`, undefined, {
			authorization: `Bearer ${await c.apiToken()}`,
		});
		expectOk(r);
		expect(r.body.message).toMatch(/valid/i);
		const d = r.body.data;
		expect(d).toMatchObject({ username: 'sandbox_business', client_id: 'sandbox_client_id' });
		expect(d.authorities).toEqual(expect.arrayContaining(['TRANSACTION_READ', 'TRANSACTION_WRITE', 'ACCOUNT_READ']));
		expect(d.issued_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
		expect(d.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
		expect(Date.parse(`${d.expires_at as string}Z`) - Date.parse(`${d.issued_at as string}Z`)).toBe(3600_000);
	});

	it('validate_token is GET only', async () => {
		const r = await c.post(`${V1}/security/api/validate_token`, {}, await c.apiToken());
		expectError(r, 405, '99', /use GET/);
		expect(r.headers.get('allow')).toBe('GET');
	});

	it('an expired token gets 401 / 42 (tokenTtlSeconds 1)', async () => {
		sb.configure({ tokenTtlSeconds: 1 });
		try {
			const token = await c.apiToken(true);
			expectOk(await c.post(`${V1}/transaction/transfer/api/fetch_banks`, {}, token));
			await sleep(2100);
			expectError(await c.post(`${V1}/transaction/transfer/api/fetch_banks`, {}, token), 401, '42', /expired/i);
		} finally {
			sb.configure({ tokenTtlSeconds: 3600 });
			await c.apiToken(true);
		}
	});

	it('a missing, malformed or tampered token gets 401 / 41', async () => {
		const path = `${V1}/transaction/transfer/api/fetch_banks`;
		expectError(await c.post(path, {}), 401, '41');
		expectError(await c.post(path, {}, 'not-a-jwt'), 401, '41');
		const token = await c.apiToken();
		const [h, p] = token.split('.');
		expectError(await c.post(path, {}, `${h}.${p}.${Buffer.from('forged').toString('base64url')}`), 401, '41');
		const raised = Buffer.from(JSON.stringify({ ...claims(token), exp: 9_999_999_999 })).toString('base64url');
		expectError(await c.post(path, {}, `${h}.${raised}.${token.split('.')[2]}`), 401, '41');
	});
});

describe('dashboard login', () => {
	it('returns token, expires_in and user, and sets the HttpOnly cookie', async () => {
		const r = await c.post<{ token: string; expires_in: number; user: { id: string; email: string; role: string } }>(
			`${V1}/auth/web/login`,
			{ email: 'admin@sandbox.bank', password: sb.seed.dashboardPassword },
		);
		expectOk(r);
		expect(r.body.data.user).toMatchObject({ email: 'admin@sandbox.bank', role: 'ADMIN' });
		expect(r.body.data.expires_in).toBe(3600);
		expect(claims(r.body.data.token).typ).toBe('web');
		expect(r.headers.get('set-cookie')).toBe(`access_token=${r.body.data.token}; HttpOnly; Path=/; SameSite=Lax`);
		// the cookie alone authenticates a /web/ call
		const viaCookie = await c.request('POST', `${V1}/account/web/get_total_balance`, {}, { cookie: `access_token=${r.body.data.token}` });
		expectOk(viaCookie);
	});

	it('refuses a wrong password with 401 / 41', async () => {
		expectError(await c.post(`${V1}/auth/web/login`, { email: sb.seed.dashboardEmail, password: 'nope' }), 401, '41', 'Invalid email or password');
	});

	it('auth/web/verify returns the metadata of the token in the body', async () => {
		const token = await c.webToken(true);
		const r = await c.web<Record<string, string>>('auth/web/verify', { token });
		expectOk(r);
		expect(r.body.message).toMatch(/valid/i);
		expect(r.body.data).toMatchObject({ email: 'admin@sandbox.bank', role: 'ADMIN' });
		expect(r.body.data.user_id).toMatch(/^[0-9a-f-]{36}$/);
		expect(r.body.data.issued_at).toMatch(/Z$/);
		expect(Date.parse(r.body.data.expires_at) - Date.parse(r.body.data.issued_at)).toBe(3600_000);
		expectError(await c.web('auth/web/verify', {}), 400, '99', 'token: is required');
		expectError(await c.web('auth/web/verify', { token: 'garbage' }), 401, '41');
		expectError(await c.web('auth/web/verify', { token: await c.apiToken() }), 401, '41');
	});

	it('an expired dashboard token gets 42', async () => {
		sb.configure({ dashboardTokenTtlSeconds: 1 });
		try {
			const token = await c.webToken(true);
			await sleep(2100);
			expectError(await c.post(`${V1}/account/web/get_total_balance`, {}, token), 401, '42');
		} finally {
			sb.configure({ dashboardTokenTtlSeconds: 3600 });
			await c.webToken(true);
		}
	});
});

describe('the two APIs do not mix', () => {
	it('an integration token on a /web/ route gets 41', async () => {
		expectError(await c.post(`${V1}/account/web/get_total_balance`, {}, await c.apiToken()), 401, '41', /\/web\//);
	});
	it('a dashboard token on an /api/ route gets 41', async () => {
		expectError(await c.post(`${V1}/transaction/transfer/api/fetch_banks`, {}, await c.webToken()), 401, '41', /\/api\//);
	});
});

describe('lockout', () => {
	it('locks an e-mail after 5 failed logins: 423, even with the right password', async () => {
		for (let i = 0; i < 5; i++) {
			expectError(await c.post(`${V1}/auth/web/login`, { email: sb.seed.dashboardEmail, password: `bad-${i}` }), 401, '41');
		}
		const r = await c.post(`${V1}/auth/web/login`, { email: sb.seed.dashboardEmail, password: sb.seed.dashboardPassword });
		expectError(r, 423, '41', /locked until \d{4}-\d{2}-\d{2}T/);
		expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(800);
		// other identities are not affected
		expectOk(await c.post(`${V1}/security/api/generate_token`, { client_id: sb.seed.clientId, client_secret: sb.seed.clientSecret }));
	});

	it('locks a client_id after 5 failed token requests', async () => {
		for (let i = 0; i < 5; i++) {
			expectError(await c.post(`${V1}/security/api/generate_token`, { client_id: sb.seed.clientId, client_secret: 'x' }), 401, '41');
		}
		const r = await c.post(`${V1}/security/api/generate_token`, { client_id: sb.seed.clientId, client_secret: sb.seed.clientSecret });
		expectError(r, 423, '41', /locked/);
	});

	it('four failures and a success do not lock', async () => {
		for (let i = 0; i < 4; i++) {
			await c.post(`${V1}/auth/web/login`, { email: sb.seed.dashboardEmail, password: 'bad' });
		}
		expectOk(await c.post(`${V1}/auth/web/login`, { email: sb.seed.dashboardEmail, password: sb.seed.dashboardPassword }));
		expectError(await c.post(`${V1}/auth/web/login`, { email: sb.seed.dashboardEmail, password: 'bad' }), 401, '41');
	});
});
