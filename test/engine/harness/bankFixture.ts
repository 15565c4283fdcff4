import type { SandboxHandle, SandboxOptions } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import { FIXED_HISTORY_END_MS } from '../../../sandbox/data/fixtures';
import { TestCredentialsHelper } from './credentialsHelper';

export interface BankFixture {
	bank: SandboxHandle;
	credentials: TestCredentialsHelper;
	/** Requests the bank received whose path ends with `suffix` since the fixture started or was cleared. */
	count(suffix: string): number;
}

export const API = { baasApi: 'api-1' };
export const DASHBOARD = { baasDashboardApi: 'web-1' };

/**
 * The sandbox bank on 127.0.0.1 plus a credential store holding one API-client and one dashboard credential.
 * Its generated history ends on a fixed day, so the dates tests name hold whatever day they run.
 */
export async function startBankFixture(options: SandboxOptions = {}): Promise<BankFixture> {
	const bank = await startSandbox({ port: 0, historyEndMs: FIXED_HISTORY_END_MS, ...options });
	const credentials = new TestCredentialsHelper();
	credentials.add('api-1', 'baasApi', {
		baseUrl: bank.url,
		clientId: bank.seed.clientId,
		clientSecret: bank.seed.clientSecret,
		webhookSecret: bank.seed.webhookSecret,
		accessToken: '',
	});
	credentials.add('web-1', 'baasDashboardApi', {
		baseUrl: bank.url,
		email: bank.seed.dashboardEmail,
		password: bank.seed.dashboardPassword,
		accessToken: '',
	});
	return {
		bank,
		credentials,
		count: (suffix) => bank.requests().filter((entry) => entry.path.endsWith(suffix)).length,
	};
}

/** Saves (or overwrites) the API-client credential `id` for the fixture's bank: the seeded client ID with `clientSecret`. */
export function storeApiCredential(fx: BankFixture, id: string, clientSecret: string): void {
	fx.credentials.add(id, 'baasApi', {
		baseUrl: fx.bank.url,
		clientId: fx.bank.seed.clientId,
		clientSecret,
		webhookSecret: fx.bank.seed.webhookSecret,
		accessToken: '',
	});
}

/**
 * The bank fixture of a test file (or of the describe block it is called in): started before its tests and
 * closed after them; after each test the injected faults are cleared and `afterEachTest` runs. The fixture
 * returned reads through to the one started, so tests and hooks use it as they would a started fixture.
 */
export function useBankFixture(options: SandboxOptions = {}, afterEachTest?: (fx: BankFixture) => void): BankFixture {
	let started: BankFixture | undefined;
	const current = (): BankFixture => {
		if (!started) throw new Error('The bank fixture is started in beforeAll: use it inside tests and hooks');
		return started;
	};
	beforeAll(async () => {
		started = await startBankFixture(options);
	});
	afterAll(async () => {
		await started?.bank.close();
	});
	afterEach(() => {
		current().bank.clearFaults();
		afterEachTest?.(current());
	});
	return {
		get bank() {
			return current().bank;
		},
		get credentials() {
			return current().credentials;
		},
		count: (suffix) => current().count(suffix),
	};
}
