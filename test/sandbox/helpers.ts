/** Test client for the sandbox over real HTTP (Node's global fetch). */
import { spawn } from 'node:child_process';

import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../sandbox';
import { FIXED_HISTORY_END_MS } from '../../sandbox/data/fixtures';

export interface Envelope<T> {
	status: boolean;
	response_code: string;
	message: string;
	data: T;
}

export interface Reply<T> {
	status: number;
	headers: Headers;
	body: Envelope<T>;
}

/** List items: `id` only in the cursor shape. */
export interface TxApi {
	id?: string;
	reference_number: string;
	account_number: string;
	account_name: string;
	amount: string;
	transaction_type: string;
	transaction_category: string;
	status: string;
	channel: string;
	remarks: string;
	created_at: string;
}

export interface TxWeb {
	id?: string;
	reference_number: string;
	account_number: string;
	amount: string;
	transaction_type: string;
	status: string;
	narration: string;
	created_at: string;
}

export interface AccountItem {
	id: string;
	account_number: string;
	account_name: string;
	account_type: string;
	status: string;
	balance: string;
	last_balance_update: string;
	is_available?: boolean;
	pool_account_number?: string | null;
	created_at?: string;
}

export interface TransferRecord {
	reference_number: string;
	transaction_id: string;
	amount: string;
	transfer_type: string;
	status: string;
	remarks: string;
	created_at: string;
	updated_at: string;
}

export interface SettlementItem {
	id?: string;
	reference: string;
	account_number: string;
	amount: string;
	settlement_date: string;
	status: string;
	created_at?: string;
}

export const V1 = '/api/v1';

export class Client {
	private tokens: Partial<Record<'api' | 'web', string>> = {};

	constructor(readonly sb: SandboxHandle) {}

	async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
		const res = await fetch(this.sb.url + path, {
			method,
			headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope<T> };
	}

	post<T = unknown>(path: string, body?: unknown, token?: string): Promise<Reply<T>> {
		return this.request<T>('POST', path, body, token ? { authorization: `Bearer ${token}` } : {});
	}

	apiToken(fresh = false): Promise<string> {
		const { clientId, clientSecret } = this.sb.seed;
		return this.token('api', fresh, 'security/api/generate_token', { client_id: clientId, client_secret: clientSecret });
	}

	webToken(fresh = false): Promise<string> {
		const { dashboardEmail, dashboardPassword } = this.sb.seed;
		return this.token('web', fresh, 'auth/web/login', { email: dashboardEmail, password: dashboardPassword });
	}

	/** The cached token of one API, fetched from `path` with `credentials` when missing or when `fresh`. */
	private async token(kind: 'api' | 'web', fresh: boolean, path: string, credentials: object): Promise<string> {
		let token = this.tokens[kind];
		if (!token || fresh) {
			const r = await this.post<{ token: string }>(`${V1}/${path}`, credentials);
			if (!r.body.status) throw new Error(`${path}: ${r.body.message}`);
			token = this.tokens[kind] = r.body.data.token;
		}
		return token;
	}

	/** POST to an integration route with a cached API token. */
	async api<T = unknown>(path: string, body: unknown = {}): Promise<Reply<T>> {
		return this.post<T>(`${V1}/${path}`, body, await this.apiToken());
	}

	/** POST to a dashboard route with a cached dashboard token. */
	async web<T = unknown>(path: string, body: unknown = {}): Promise<Reply<T>> {
		return this.post<T>(`${V1}/${path}`, body, await this.webToken());
	}

	control<T = unknown>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
		return this.request<T>(method, `/__sandbox/${path}`, body);
	}

	/** Balance (in kobo) straight from the bank state. */
	balance(accountNumber: string): bigint {
		const account = this.sb.bank.accounts.get(accountNumber);
		if (!account) throw new Error(`no account ${accountNumber}`);
		return account.balance;
	}
}

/** The generated history ends on a fixed day, so the dates tests name hold whatever day they run. */
export async function boot(options: SandboxOptions = {}): Promise<{ sb: SandboxHandle; c: Client }> {
	const sb = await startSandbox({ port: 0, historyEndMs: FIXED_HISTORY_END_MS, ...options });
	return { sb, c: new Client(sb) };
}

/** Expect a contract error envelope. */
export function expectError(r: Reply<unknown>, http: number, code: string, message?: string | RegExp): void {
	expect({ status: r.status, ok: r.body.status, code: r.body.response_code, data: r.body.data }).toEqual({
		status: http,
		ok: false,
		code,
		data: null,
	});
	if (message !== undefined) expect(r.body.message).toMatch(message);
}

export function expectOk(r: Reply<unknown>): void {
	expect({ status: r.status, ok: r.body.status, code: r.body.response_code, message: r.body.message }).toMatchObject({
		status: 200,
		ok: true,
		code: '00',
	});
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/**
 * Runs `npm run sandbox -- <args>` (tsx sandbox/cli.ts) until its start-up banner is printed, hands the banner to
 * `check`, then stops it with SIGTERM.
 */
export async function withCli(args: string[], check: (banner: string) => Promise<void> | void): Promise<void> {
	const child = spawn(process.execPath, ['node_modules/.bin/tsx', 'sandbox/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	try {
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no start-up banner: ${out}`)), 30_000);
			child.stdout.on('data', (chunk: Buffer) => {
				out += chunk.toString('utf8');
				if (out.includes('Press Ctrl+C')) {
					clearTimeout(timer);
					resolve();
				}
			});
			child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
		});
		await check(out);
	} finally {
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
	}
}
