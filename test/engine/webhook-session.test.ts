import type { IDataObject } from 'n8n-workflow';

import { API, DASHBOARD, useBankFixture } from './harness/bankFixture';
import { runNode } from './harness/runNode';
import { bankToken, JWT_SHAPE } from './harness/tokens';
import { forgetHeldTokens } from '../../nodes/common/transport/session';

const fx = useBankFixture({}, (started) => started.bank.configure({ dashboardTokenTtlSeconds: 3600 }));

describe('Webhook → Create', () => {
	const create = (url: unknown, events: unknown, continueOnFail = false) =>
		runNode(fx.credentials, {
			parameters: { authentication: 'apiClient', resource: 'webhook', operation: 'create', url, events } as IDataObject,
			credentials: API,
			continueOnFail,
		});

	test('registers the URL with the chosen events and returns the stored webhook', async () => {
		const run = await create('https://hooks.example.com/bank', ['COLLECTION_SUCCESS', 'TRANSFER_FAILED']);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			{
				id: expect.any(String),
				url: 'https://hooks.example.com/bank',
				events: ['COLLECTION_SUCCESS', 'TRANSFER_FAILED'],
				created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
			},
		]);
		const stored = fx.bank.bank.webhooks.find((w) => w.url === 'https://hooks.example.com/bank');
		expect(stored?.events).toEqual(['COLLECTION_SUCCESS', 'TRANSFER_FAILED']);
	});

	test('a bank refusal is an error with its code, and the write is not re-sent', async () => {
		const before = fx.count('/create_webhook');
		fx.bank.addFault({ match: 'create_webhook', errorCode: '60', times: 1 });
		const run = await create('https://hooks.example.com/refused', ['TRANSFER_SUCCESS'], true);
		expect(run.json[0]).toMatchObject({ response_code: '60', outcome: 'refused' });
		expect(String(run.json[0].error)).toContain('[60]');
		expect(fx.count('/create_webhook') - before).toBe(1);
		expect(fx.bank.bank.webhooks.some((w) => w.url === 'https://hooks.example.com/refused')).toBe(false);
	});

	test('a 5xx leaves the registration open: sent once more (one registration per URL), registered once', async () => {
		const before = fx.count('/create_webhook');
		fx.bank.addFault({ match: 'create_webhook', errorCode: '80', times: 1 });
		const run = await create('https://hooks.example.com/down', ['TRANSFER_SUCCESS'], true);
		expect(run.json[0]).toMatchObject({ url: 'https://hooks.example.com/down', events: ['TRANSFER_SUCCESS'] });
		expect(fx.count('/create_webhook') - before).toBe(2);
		expect(fx.bank.bank.webhooks.filter((w) => w.url === 'https://hooks.example.com/down')).toHaveLength(1);
	});

	test('invalid URL or events send nothing', async () => {
		const before = fx.bank.requests().length;
		for (const [url, events, message] of [
			['not a url', ['TRANSFER_SUCCESS'], /URL must be an absolute URL/],
			['ftp://files.example.com/x', ['TRANSFER_SUCCESS'], /URL must start with http/],
			['https://hooks.example.com/x', '={{ [] }}', /Events must list at least one event/],
			['https://hooks.example.com/x', '={{ ["PAYMENT_RECEIVED"] }}', /Events must list only COLLECTION_SUCCESS/],
		] as Array<[string, unknown, RegExp]>) {
			const run = await create(url, events);
			expect(run.error).toMatchObject({ name: 'NodeOperationError' });
			expect(run.error!.message).toMatch(message);
		}
		expect(fx.bank.requests().length).toBe(before);
	});
});

describe('Session → Verify', () => {
	const verify = (token: string | undefined, credentials: Record<string, string> = DASHBOARD, continueOnFail = false) =>
		runNode(fx.credentials, {
			parameters: {
				authentication: 'dashboardUser',
				resource: 'session',
				operation: 'verify',
				...(token === undefined ? {} : { token }),
			},
			credentials,
			continueOnFail,
		});

	test('with no token it verifies the credential\'s own session, signing in first when needed, and never outputs the token', async () => {
		forgetHeldTokens();
		const loginsBefore = fx.count('/auth/web/login');
		const run = await verify(undefined);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			{
				valid: true,
				message: 'Token is valid',
				user_id: expect.any(String),
				email: fx.bank.seed.dashboardEmail,
				role: 'ADMIN',
				issued_at: expect.any(String),
				expires_at: expect.any(String),
			},
		]);
		expect(fx.count('/auth/web/login') - loginsBefore).toBe(1);
		const everything = JSON.stringify(run.run);
		expect(everything).not.toMatch(JWT_SHAPE);
		expect(everything).not.toContain(fx.bank.seed.dashboardPassword);
	});

	test('an expired own session is renewed by n8n and the new one verified', async () => {
		fx.bank.configure({ dashboardTokenTtlSeconds: 1 });
		forgetHeldTokens();
		const first = await verify('');
		expect(first.json[0]).toMatchObject({ valid: true });
		await new Promise((resolve) => setTimeout(resolve, 2_100));
		const loginsBefore = fx.count('/auth/web/login');
		const run = await verify('');
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ valid: true, email: fx.bank.seed.dashboardEmail });
		expect(fx.count('/auth/web/login') - loginsBefore).toBe(1);
	});

	test('a given token is verified', async () => {
		const token = await bankToken(fx, 'web');
		const run = await verify(token);
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ valid: true, role: 'ADMIN' });
		expect(JSON.stringify(run.run)).not.toContain(token);
	});

	test('a given token the bank refuses is its 41, saying the given token is the problem', async () => {
		const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJl';
		const run = await verify(forged, DASHBOARD, true);
		expect(run.json[0]).toMatchObject({ response_code: '41' });
		expect(String(run.json[0].error)).toMatch(/given session token is not valid/);
		expect(String(run.json[0].description)).toMatch(/Token field/);
		expect(JSON.stringify(run.run)).not.toContain(forged);
	});

	test('a value that is not a token sends nothing and is not repeated', async () => {
		const before = fx.bank.requests().length;
		const run = await verify('not a token at all');
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(run.error!.message).toMatch(/Token must be a JWT/);
		expect(run.error!.message).not.toContain('not a token at all');
		expect(fx.bank.requests().length).toBe(before);
	});
});
