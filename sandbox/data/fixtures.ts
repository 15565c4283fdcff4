/**
 * Fixed sandbox fixtures: credentials, accounts, banks, team. They do not depend on the seed, so a developer
 * can type them into an n8n credential once; only the generated history (seed.ts) varies with the seed.
 */

export const OWN_BANK_CODE = '090823' as const;

export const CREDENTIALS = {
	clientId: 'sandbox_client_id',
	clientSecret: 'sandbox_client_secret_4f9c2e7a1b',
	webhookSecret: 'sandbox_webhook_secret_8d3f1a6c',
	dashboardEmail: 'admin@sandbox.bank',
	dashboardPassword: 'Sandbox-Pass-123',
	businessName: 'Sandbox Business Ltd',
	username: 'sandbox_business',
};

export const OTHER_BUSINESS_NAME = 'Northwind Traders Ltd';

/** BVN/NIN values whose identity verification fails (create_customer_account -> 83). */
export const FAILING_IDENTITIES = ['00000000000', '99999999999'];

/** Inter-bank beneficiaries whose transfers end failed (debit reversed). Both resolve by name enquiry. */
export const FAILING_BENEFICIARIES = ['9990000001', '9990000002'];

export interface AccountFixture {
	number: string;
	name: string;
	type: 'pool' | 'virtual' | 'current' | 'savings' | 'normal';
	status: 'active' | 'inactive' | 'blocked' | 'closed';
	/** opening balance in kobo, before generated history */
	opening: bigint;
	created: string;
	pooled?: boolean;
}

export const POOL_ACCOUNT = '0823000001';
export const BLOCKED_ACCOUNT = '0823000004';
export const CLOSED_ACCOUNT = '0823000005';
export const FOREIGN_ACCOUNT = '0823900001';

/** The six virtual accounts share one created_at on purpose: cursor paging must be stable under ties. */
const VIRTUAL_CREATED = '2025-03-01T09:00:00.000Z';

export const BUSINESS_ACCOUNTS: AccountFixture[] = [
	{ number: POOL_ACCOUNT, name: 'Sandbox Business Ltd - Pool', type: 'pool', status: 'active', opening: 5_000_000_000n, created: '2025-01-15T08:00:00.000Z' },
	{ number: '0823000002', name: 'Sandbox Business Ltd - Operations', type: 'current', status: 'active', opening: 250_000_000n, created: '2025-01-15T08:05:00.000Z' },
	{ number: '0823000003', name: 'Sandbox Business Ltd - Savings', type: 'savings', status: 'inactive', opening: 120_000_000n, created: '2025-02-01T10:00:00.000Z' },
	{ number: BLOCKED_ACCOUNT, name: 'Sandbox Business Ltd - Escrow', type: 'savings', status: 'blocked', opening: 75_000_000n, created: '2025-02-01T10:00:00.000Z' },
	{ number: CLOSED_ACCOUNT, name: 'Sandbox Business Ltd - Old Collections', type: 'normal', status: 'closed', opening: 0n, created: '2025-01-20T12:00:00.000Z' },
	{ number: '0823100001', name: 'Adaeze Okonkwo', type: 'virtual', status: 'active', opening: 1_500_000n, created: VIRTUAL_CREATED, pooled: true },
	{ number: '0823100002', name: 'Babatunde Adeyemi', type: 'virtual', status: 'active', opening: 2_500_000n, created: VIRTUAL_CREATED, pooled: true },
	{ number: '0823100003', name: 'Chiamaka Eze', type: 'virtual', status: 'active', opening: 0n, created: VIRTUAL_CREATED, pooled: true },
	{ number: '0823100004', name: 'Danjuma Musa', type: 'virtual', status: 'active', opening: 10_000_000n, created: VIRTUAL_CREATED, pooled: true },
	{ number: '0823100005', name: 'Efua Mensah', type: 'virtual', status: 'active', opening: 500_000n, created: VIRTUAL_CREATED, pooled: true },
	{ number: '0823100006', name: 'Folasade Balogun', type: 'virtual', status: 'active', opening: 3_000_000n, created: VIRTUAL_CREATED, pooled: true },
];

export const FOREIGN_ACCOUNTS: AccountFixture[] = [
	{ number: FOREIGN_ACCOUNT, name: 'Northwind Traders Ltd', type: 'current', status: 'active', opening: 90_000_000n, created: '2025-01-10T09:00:00.000Z' },
];

/** ~20 Nigerian-style banks; codes are the NIP institution codes, cbn_code null for microfinance/mobile money. */
export const BANKS: Array<{ name: string; code: string; cbnCode: string | null }> = [
	{ name: 'Sandbox Microfinance Bank', code: OWN_BANK_CODE, cbnCode: null },
	{ name: 'Access Bank', code: '000014', cbnCode: '044' },
	{ name: 'Guaranty Trust Bank', code: '000013', cbnCode: '058' },
	{ name: 'Zenith Bank', code: '000015', cbnCode: '057' },
	{ name: 'First Bank of Nigeria', code: '000016', cbnCode: '011' },
	{ name: 'United Bank for Africa', code: '000004', cbnCode: '033' },
	{ name: 'Fidelity Bank', code: '000007', cbnCode: '070' },
	{ name: 'Union Bank of Nigeria', code: '000018', cbnCode: '032' },
	{ name: 'Sterling Bank', code: '000001', cbnCode: '232' },
	{ name: 'Wema Bank', code: '000017', cbnCode: '035' },
	{ name: 'First City Monument Bank', code: '000003', cbnCode: '214' },
	{ name: 'Ecobank Nigeria', code: '000010', cbnCode: '050' },
	{ name: 'Stanbic IBTC Bank', code: '000012', cbnCode: '221' },
	{ name: 'Polaris Bank', code: '000008', cbnCode: '076' },
	{ name: 'Keystone Bank', code: '000002', cbnCode: '082' },
	{ name: 'Providus Bank', code: '000023', cbnCode: '101' },
	{ name: 'Jaiz Bank', code: '000006', cbnCode: '301' },
	{ name: 'Kuda Microfinance Bank', code: '090267', cbnCode: null },
	{ name: 'Moniepoint Microfinance Bank', code: '090405', cbnCode: null },
	{ name: 'OPay Digital Services', code: '100004', cbnCode: null },
];

export const BANKS_UPDATED_AT = '2025-06-01T00:00:00.000Z';

export const FIRST_NAMES = [
	'Adaeze', 'Babatunde', 'Chiamaka', 'Danjuma', 'Emeka', 'Fatima', 'Gbenga', 'Halima', 'Ifeoma', 'Jide',
	'Kemi', 'Lanre', 'Musa', 'Ngozi', 'Obinna', 'Precious', 'Rukayat', 'Segun', 'Tolu', 'Uche', 'Yetunde', 'Zainab',
];
export const LAST_NAMES = [
	'Okafor', 'Adeyemi', 'Eze', 'Bello', 'Okonkwo', 'Balogun', 'Nwosu', 'Ibrahim', 'Ogunleye', 'Obi',
	'Abubakar', 'Chukwu', 'Afolabi', 'Danladi', 'Ekwueme', 'Olawale', 'Yusuf', 'Onyeka',
];

export const PERMISSIONS: Array<{ code: string; name: string; description: string }> = [
	{ code: 'account.view', name: 'View accounts', description: 'See accounts, balances and summaries' },
	{ code: 'account.manage', name: 'Manage accounts', description: 'Create accounts and change their status' },
	{ code: 'transaction.view', name: 'View transactions', description: 'See transaction history' },
	{ code: 'transfer.initiate', name: 'Initiate transfers', description: 'Start intra- and inter-bank transfers' },
	{ code: 'transfer.approve', name: 'Approve transfers', description: 'Approve transfers started by others (maker-checker)' },
	{ code: 'settlement.view', name: 'View settlements', description: 'See settlement history' },
	{ code: 'member.view', name: 'View members', description: 'See team members' },
	{ code: 'member.manage', name: 'Manage members', description: 'Invite members and change their roles' },
	{ code: 'role.manage', name: 'Manage roles', description: 'Create and delete roles' },
	{ code: 'webhook.manage', name: 'Manage webhooks', description: 'Register webhook URLs' },
];

export const ROLES: Array<{ name: string; description: string; codes: string[] }> = [
	{ name: 'ADMIN', description: 'Full access', codes: PERMISSIONS.map((p) => p.code) },
	{ name: 'INITIATOR', description: 'Starts transfers', codes: ['account.view', 'transaction.view', 'transfer.initiate', 'settlement.view'] },
	{ name: 'REVIEWER', description: 'Reviews activity', codes: ['account.view', 'transaction.view', 'settlement.view', 'member.view'] },
	{ name: 'AUTHORIZER', description: 'Approves transfers', codes: ['account.view', 'transaction.view', 'transfer.approve', 'settlement.view'] },
];

export const MEMBERS: Array<{
	email: string; first: string; last: string; role: string; active: boolean; joined: string; lastLogin: string | null;
}> = [
	{ email: CREDENTIALS.dashboardEmail, first: 'Ada', last: 'Okafor', role: 'ADMIN', active: true, joined: '2025-01-15T08:00:00.000Z', lastLogin: '2025-12-30T09:12:00.000Z' },
	{ email: 'chinedu.eze@sandbox.bank', first: 'Chinedu', last: 'Eze', role: 'INITIATOR', active: true, joined: '2025-02-03T10:30:00.000Z', lastLogin: '2025-12-29T16:40:00.000Z' },
	{ email: 'fatima.bello@sandbox.bank', first: 'Fatima', last: 'Bello', role: 'REVIEWER', active: true, joined: '2025-02-03T10:30:00.000Z', lastLogin: '2025-12-18T11:05:00.000Z' },
	{ email: 'tunde.adeyemi@sandbox.bank', first: 'Tunde', last: 'Adeyemi', role: 'AUTHORIZER', active: true, joined: '2025-03-11T14:00:00.000Z', lastLogin: '2025-12-31T08:01:00.000Z' },
	{ email: 'ngozi.nwosu@sandbox.bank', first: 'Ngozi', last: 'Nwosu', role: 'INITIATOR', active: true, joined: '2025-06-20T09:45:00.000Z', lastLogin: null },
	{ email: 'emeka.obi@sandbox.bank', first: 'Emeka', last: 'Obi', role: 'REVIEWER', active: false, joined: '2025-04-02T13:15:00.000Z', lastLogin: '2025-05-01T10:00:00.000Z' },
];

/**
 * Generated history runs over the 120 days before its end: by default the start of today (UTC), so "yesterday's
 * settlements" and a daily report show real numbers on any date, and the same seed gives the same data all day.
 * Tests that name dates pin the end to FIXED_HISTORY_END_MS (SandboxOptions.historyEndMs).
 */
export const HISTORY_DAYS = 120;
export const FIXED_HISTORY_END_MS = Date.UTC(2026, 0, 1);

export function startOfTodayUtc(nowMs = Date.now()): number {
	return nowMs - (nowMs % 86_400_000);
}
