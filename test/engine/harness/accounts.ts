/** The seeded accounts and helpers the account engine tests share (account-*.test.ts). */
import { type BankFixture } from './bankFixture';
import { asApiClient, asDashboardUser } from './nodeParameters';
import { runNode, type RunNodeOptions } from './runNode';

export const POOL = '0823000001';
export const OPERATIONS = '0823000002';
export const SAVINGS_INACTIVE = '0823000003';
export const VIRTUALS = ['0823100001', '0823100002', '0823100003', '0823100004', '0823100005', '0823100006'];

/** Amounts as the contract writes them: minor units → "1234.50" (computed here, independently of the sandbox). */
export const naira = (minor: bigint) => `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;

export const api = asApiClient({ resource: 'account' });
export const web = asDashboardUser({ resource: 'account' });

export async function expectBankError(fx: BankFixture, options: RunNodeOptions, code: string) {
	const run = await runNode(fx.credentials, options);
	expect(run.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: code } });
	expect(run.error!.message).toContain(`[${code}]`);
	return run;
}
