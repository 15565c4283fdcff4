import type { SandboxHandle, SandboxOptions } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import { TestCredentialsHelper } from './credentialsHelper';

export interface BankFixture {
	bank: SandboxHandle;
	credentials: TestCredentialsHelper;
	/** Requests the bank received whose path ends with `suffix` since the fixture started or was cleared. */
	count(suffix: string): number;
}

export const API = { baasApi: 'api-1' };
export const DASHBOARD = { baasDashboardApi: 'web-1' };

/** The sandbox bank on 127.0.0.1 plus a credential store holding one API-client and one dashboard credential. */
export async function startBankFixture(options: SandboxOptions = {}): Promise<BankFixture> {
	const bank = await startSandbox({ port: 0, ...options });
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
