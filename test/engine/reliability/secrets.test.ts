import type { IDataObject, Logger } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../../../nodes/common/transport/request';
import { forgetHeldTokens } from '../../../nodes/common/transport/session';
import { useBankFixture } from '../harness/bankFixture';
import { testCredential } from '../harness/credentialTest';
import { rl } from '../harness/nodeParameters';
import type { RunNodeOptions } from '../harness/runNode';
import { runNode } from '../harness/runNode';
import { JWT_SHAPE } from '../harness/tokens';
import { FULL_SIZE, reportFigures, sized } from './scale';

/**
 * Suite 6, secrets never leak: with distinctive secret values (and a Base URL carrying user:password), every
 * operation family runs under each fault, and every text that leaves the node is scanned: outputs, errors
 * (deeply: every own property, causes, stacks), captured log lines and console output. Occurrences must be 0.
 */

const SECRETS = {
	clientSecret: 'CS-leakcheck-7Qx9Zp2Lm4',
	password: 'PW-leakcheck-3Vb8Nk5Jt1',
	webhookSecret: 'WH-leakcheck-6Hd2Rf9Ys0',
	urlPassword: 'UP-leakcheck-1Gc7Tw4Ke8',
};

const fx = useBankFixture({ interSettleDelayMs: 50 });

const captured: string[] = [];
const capture = (...args: unknown[]) => captured.push(args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' '));
const logger = { error: capture, warn: capture, info: capture, debug: capture, verbose: capture, scoped: () => logger } as unknown as Logger;

function safeJson(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_key, v: unknown) => {
		if (typeof v === 'object' && v !== null) {
			if (seen.has(v)) return undefined;
			seen.add(v);
		}
		return v;
	});
}

/** Every string reachable from `value`, including non-enumerable own properties (message, stack, cause). */
function texts(value: unknown, out: string[] = [], seen = new WeakSet<object>()): string[] {
	if (typeof value === 'string') out.push(value);
	else if (typeof value === 'object' && value !== null && !seen.has(value)) {
		seen.add(value);
		for (const key of Object.getOwnPropertyNames(value)) {
			out.push(key);
			texts((value as Record<string, unknown>)[key], out, seen);
		}
	}
	return out;
}

interface Scenario {
	name: string;
	fault?: Parameters<typeof fx.bank.addFault>[0];
	credentials?: 'good' | 'wrong' | 'unreachable';
}

const SCENARIOS: Scenario[] = [
	{ name: 'no fault' },
	{ name: 'code 80', fault: { errorCode: '80' } },
	{ name: 'bank echoes the Authorization header', fault: { errorCode: '99', httpStatus: 400, echoAuthorization: true } },
	{ name: '42 inside HTTP 200, echoed', fault: { errorCode: '42', httpStatus: 200, echoAuthorization: true } },
	{ name: 'dropped before', fault: { drop: 'before' } },
	{ name: 'dropped after', fault: { drop: 'after' } },
	{ name: 'latency beyond the timeout', fault: { latencyMs: 400, times: 8 } },
	{ name: 'rate limited', fault: { rateLimit: { retryAfterSeconds: 0 }, times: 2 } },
	{ name: 'wrong secret and password', credentials: 'wrong' },
	{ name: 'bank unreachable', credentials: 'unreachable' },
];

const OPERATIONS: Array<{ name: string; options: (items: number) => RunNodeOptions }> = [
	{
		name: 'Account → Get Balance (API client)',
		options: (n) => ({
			parameters: { authentication: 'apiClient', resource: 'account', operation: 'getBalance', accountNumber: '0823000001' },
			credentials: { baasApi: 'api-x' },
			items: Array.from({ length: n }, () => ({})),
		}),
	},
	{
		name: 'Transaction → Get Many (dashboard)',
		options: () => ({
			parameters: { authentication: 'dashboardUser', resource: 'transaction', operation: 'getAll', returnAll: false, limit: 3 },
			credentials: { baasDashboardApi: 'web-x' },
		}),
	},
	{
		name: 'Token → Validate',
		options: () => ({ parameters: { authentication: 'apiClient', resource: 'token', operation: 'validate' }, credentials: { baasApi: 'api-x' } }),
	},
	{
		name: 'Session → Verify (own token)',
		options: () => ({ parameters: { authentication: 'dashboardUser', resource: 'session', operation: 'verify' }, credentials: { baasDashboardApi: 'web-x' } }),
	},
	{
		name: 'Bank → Get Many',
		options: () => ({ parameters: { authentication: 'apiClient', resource: 'bank', operation: 'getAll', returnAll: false, limit: 2 }, credentials: { baasApi: 'api-x' } }),
	},
	{
		name: 'Webhook → Create',
		options: () => ({
			parameters: { authentication: 'apiClient', resource: 'webhook', operation: 'create', url: 'https://hooks.example.com/leak', events: ['TRANSFER_SUCCESS'] },
			credentials: { baasApi: 'api-x' },
		}),
	},
	{
		name: 'Transfer → Create',
		options: (n) => ({
			parameters: {
				authentication: 'apiClient',
				resource: 'transfer',
				operation: 'create',
				transferType: 'intra',
				amount: '1.00',
				sourceAccountNumber: rl('0823000002', 'id'),
				beneficiaryAccountNumber: '0823100001',
				narration: 'leak check',
			},
			credentials: { baasApi: 'api-x' },
			items: Array.from({ length: n }, () => ({ reference_number: `LEAK-${Date.now()}-${Math.random().toString(36).slice(2)}` })),
		}),
	},
];

function storeCredentials(kind: Scenario['credentials']) {
	const port = kind === 'unreachable' ? 1 : fx.bank.port;
	const baseUrl = `http://ops:${SECRETS.urlPassword}@127.0.0.1:${port}`;
	const wrong = kind === 'wrong' ? 'x-' : '';
	fx.credentials.add('api-x', 'baasApi', {
		baseUrl,
		clientId: fx.bank.seed.clientId,
		clientSecret: wrong + SECRETS.clientSecret,
		webhookSecret: SECRETS.webhookSecret,
		accessToken: '',
	});
	fx.credentials.add('web-x', 'baasDashboardApi', { baseUrl, email: fx.bank.seed.dashboardEmail, password: wrong + SECRETS.password, accessToken: '' });
}

describe('secrets never leak', () => {
	const original = { ...REQUEST_LIMITS };
	beforeAll(() => {
		LoggerProxy.init(logger);
		REQUEST_LIMITS.timeoutMs = 250;
		REQUEST_LIMITS.retryBaseMs = 5;
		for (const business of fx.bank.bank.businesses.values()) {
			if (business.clientId === fx.bank.seed.clientId) {
				business.clientSecret = SECRETS.clientSecret;
				business.webhookSecret = SECRETS.webhookSecret;
			}
		}
		for (const member of fx.bank.bank.members.values()) {
			if (member.email === fx.bank.seed.dashboardEmail) member.password = SECRETS.password;
		}
	});
	afterAll(() => {
		Object.assign(REQUEST_LIMITS, original);
	});

	const items = sized(1, 20);
	const modes = FULL_SIZE ? ([false, true, 'errorOutput'] as const) : ([true] as const);
	const totals = { runs: 0, scanned: 0 };
	const found: string[] = [];
	const scan = (where: string, value: unknown) => {
		for (const text of texts(value)) {
			totals.scanned++;
			for (const secret of Object.values(SECRETS)) if (text.includes(secret)) found.push(`${where}: ${secret}`);
			if (JWT_SHAPE.test(text)) found.push(`${where}: a token`);
		}
	};
	let spies: jest.SpyInstance[] = [];
	beforeAll(() => {
		spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => jest.spyOn(console, level).mockImplementation(capture));
	});
	afterAll(async () => {
		for (const spy of spies) spy.mockRestore();
		fx.bank.clearFaults();
		await fx.bank.settlePending();
		scan('logs', captured);
		reportFigures('secrets', { scenarios: SCENARIOS.length, runs: totals.runs, texts_scanned: totals.scanned, log_lines: captured.length, occurrences: found.length });
		expect(found).toEqual([]);
	});

	test.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
		'%s: outputs, errors (deeply) and the credential test carry no secret, token or URL password',
		async (_name, scenario) => {
			storeCredentials(scenario.credentials);
			forgetHeldTokens();
			fx.bank.clearFaults();
			if (scenario.fault) fx.bank.addFault(scenario.fault);
			const before = found.length;
			for (const operation of OPERATIONS) {
				for (const continueOnFail of modes) {
					const run = await runNode(fx.credentials, { ...operation.options(items), continueOnFail });
					totals.runs++;
					scan(`${scenario.name} / ${operation.name} / ${String(continueOnFail)}`, [run.items, run.errorItems, run.error, run.run.data]);
				}
			}
			for (const [type, id] of [
				['baasApi', 'api-x'],
				['baasDashboardApi', 'web-x'],
			]) {
				scan(`${scenario.name} / credential test ${type}`, (await testCredential(fx.credentials, type, id)) as unknown as IDataObject);
			}
			fx.bank.clearFaults();
			expect(found.slice(before)).toEqual([]);
		},
		FULL_SIZE ? 600_000 : 30_000,
	);
});
