import { boot, Client, expectError, V1 } from './helpers';
import type { SandboxHandle } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 20 }));
});
afterAll(() => sb.close());

const ROLE = '6f1c2a10-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const transfer = {
	reference_number: 'VAL-1',
	transfer_type: 'intra',
	amount: '10.00',
	source_account_number: '0823000001',
	beneficiary_account_number: '0823100001',
	narration: 'validation',
};
const customer = { email: 'jane@example.com', phone: '08012345678', bvn: '12345678901', account_name: 'Jane Doe' };

// [api, path, body, expected message fragment]
const cases: Array<[ 'api' | 'web', string, unknown, string ]> = [
	['api', 'account/api/get_account_balance', { account_number: '12345' }, 'account_number: must be exactly 10 digits'],
	['web', 'account/web/get_account_balance', { account_number: '12345678901' }, 'account_number: must be exactly 10 digits'],
	['api', 'account/api/get_account_balance', {}, 'account_number: is required'],
	['api', 'account/api/get_account_balance', { account_number: 1234567890 }, 'account_number: must be a string'],
	['api', 'account/api/create_customer_account', { ...customer, bvn: '1234567890' }, 'bvn: must be exactly 11 digits'],
	['api', 'account/api/create_customer_account', { ...customer, bvn: undefined, nin: '12345' }, 'nin: must be exactly 11 digits'],
	['api', 'account/api/create_customer_account', { ...customer, bvn: undefined }, 'bvn: at least one of bvn or nin is required'],
	['api', 'account/api/create_customer_account', { ...customer, email: 'not-an-email' }, 'email: must be a valid e-mail address'],
	['api', 'account/api/create_customer_account', { ...customer, account_name: undefined }, 'account_name: is required'],
	['web', 'auth/web/create_role', { name: 'x'.repeat(256), permission_codes: ['account.view'] }, 'name: must be at most 255 characters'],
	['web', 'auth/web/create_role', { name: '', permission_codes: ['account.view'] }, 'name: must not be empty'],
	['web', 'auth/web/create_role', { name: 'R', permission_codes: ['no.such'] }, "permission_codes: unknown permission code 'no.such'"],
	['api', 'transaction/api/fetch_transactions', { page: 0 }, 'page: must be at least 1'],
	['api', 'transaction/api/fetch_transactions', { page_size: 1.5 }, 'page_size: must be an integer'],
	['api', 'transaction/api/fetch_transactions', { limit: '5' }, 'limit: must be a number'],
	['web', 'transaction/web/fetch_transactions', { filters: { start_date: '2025-13-01' } }, 'filters.start_date: must be a date in YYYY-MM-DD form'],
	['web', 'transaction/web/fetch_transactions', { filters: { date: '2025-02-30' } }, 'filters.date: must be a date in YYYY-MM-DD form'],
	['web', 'transaction/web/fetch_transactions', { filters: { status: 'done' } }, 'filters.status: must be one of success, pending, failed'],
	['web', 'transaction/web/fetch_transactions', { filters: { transaction_type: 'refund' } }, 'filters.transaction_type: must be one of credit, debit'],
	['web', 'transaction/web/fetch_transactions', { filters: { start_date: '2025-12-02', end_date: '2025-12-01' } }, 'filters.end_date: must not be before start_date'],
	['web', 'transaction/web/fetch_transactions', { filters: { txn_date: '2025-12-01' } }, 'filters.txn_date: unknown field'],
	['web', 'transaction/web/fetch_transactions', { cursor_id: ROLE }, 'cursor_created_at: is required when cursor_id is given'],
	['web', 'transaction/web/fetch_transactions', { cursor_created_at: 'yesterday' }, 'cursor_created_at: must be an ISO 8601 date-time'],
	['web', 'transaction/web/fetch_settlement_transactions', { filters: { account_number: '1' } }, 'filters.account_number: must be exactly 10 digits'],
	['web', 'account/web/fetch_customer_accounts', { count: 0 }, 'count: must be at least 1'],
	['web', 'account/web/fetch_account_summaries', { account_type: 'pool' }, 'account_type: must be one of normal, virtual, current, savings'],
	['web', 'account/web/fetch_account_collections', { pool_account_number: '08230000011' }, 'pool_account_number: must be at most 10 characters'],
	['web', 'account/web/update_account_status', { account_number: '0823000002', status: 'blocked' }, 'status: must be one of active, inactive'],
	['web', 'account/web/update_account_status', { account_number: '0823000002' }, 'status: is required'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, transfer_type: 'wire' }, 'transfer_type: must be one of intra, inter'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, amount: '10.123' }, 'amount: must be a decimal string with at most 2 decimals'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, amount: '-5.00' }, 'amount: must be a decimal string'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, amount: '0.00' }, 'amount: must be greater than 0'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, amount: 10 }, 'amount: must be a decimal string such as "1500.00", not a number'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, reference_number: '' }, 'reference_number: must not be empty'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, reference_number: undefined }, 'reference_number: is required'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, transfer_type: 'inter' }, 'bank_code: is required for an inter-bank transfer'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, transfer_type: 'inter', bank_code: '999999' }, "bank_code: unknown bank code '999999'"],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, bank_code: '000013' }, 'bank_code: must be 090823'],
	['api', 'transaction/transfer/api/funds_transfer', { ...transfer, beneficiary_account_number: '0823000001' }, 'beneficiary_account_number: must differ from source_account_number'],
	['api', 'transaction/transfer/api/transaction_status', {}, 'reference_number: is required'],
	['web', 'transaction/transfer/web/name_enquiry', { beneficiary_account_number: '0823100001', source_account_number: '0823000001' }, 'bank_code: is required'],
	['web', 'transaction/transfer/web/name_enquiry', { beneficiary_account_number: '0823100001', bank_code: 'XYZ', source_account_number: '0823000001' }, "bank_code: unknown bank code 'XYZ'"],
	['web', 'auth/web/get_member_detail', { user_id: 'abc' }, 'user_id: must be a UUID'],
	['web', 'auth/web/delete_role', { role_id: '123' }, 'role_id: must be a UUID'],
	['web', 'auth/web/add_member', { email: 'x@y', first_name: 'A', last_name: 'B', role_id: ROLE }, 'email: must be a valid e-mail address'],
	['web', 'auth/web/add_member', { email: 'new@sandbox.bank', first_name: 'A', role_id: ROLE }, 'last_name: is required'],
	['web', 'auth/web/fetch_members', { sort_by: 'age' }, 'sort_by: must be one of date_joined, email, first_name, last_name'],
	['web', 'auth/web/fetch_members', { filters: { is_active: 'yes' } }, 'filters.is_active: must be a boolean'],
	['api', 'customer/api/create_webhook', { url: 'ftp://example.com/hook', events: ['COLLECTION_SUCCESS'] }, 'url: must be an http(s) URL'],
	['api', 'customer/api/create_webhook', { url: 'http://127.0.0.1:1/hook', events: [] }, 'events: must list at least one event'],
	['api', 'customer/api/create_webhook', { url: 'http://127.0.0.1:1/hook', events: ['COLLECTION_SUCCESS', 'PAYOUT'] }, 'events.1: must be one of COLLECTION_SUCCESS, TRANSFER_SUCCESS, TRANSFER_FAILED'],
	['api', 'transaction/transfer/api/fetch_banks', { anything: 1 }, 'anything: unknown field'],
];

describe('invalid input -> HTTP 400, status false, response_code 99, the field named', () => {
	it.each(cases)('%s %s %j', async (kind, path, body, fragment) => {
		const r = kind === 'api' ? await c.api(path, body) : await c.web(path, body);
		expectError(r, 400, '99');
		expect(r.body.message).toContain(fragment);
	});

	it('names every invalid field at once', async () => {
		const r = await c.api('transaction/transfer/api/funds_transfer', { ...transfer, amount: 'ten', source_account_number: '1' });
		expect(r.body.message).toContain('amount:');
		expect(r.body.message).toContain('source_account_number: must be exactly 10 digits');
	});

	it('refuses a body that is not JSON or not an object', async () => {
		const token = await c.apiToken();
		const bad = await c.request('POST', `${V1}/account/api/get_account_balance`, '{"account_number":', {
			authorization: `Bearer ${token}`,
			'content-type': 'application/json',
		});
		expectError(bad, 400, '99', 'body: must be valid JSON');
		const arr = await c.request('POST', `${V1}/account/api/get_account_balance`, '[1]', { authorization: `Bearer ${token}` });
		expectError(arr, 400, '99', 'body: must be a JSON object');
	});

	it('treats an empty body as {} where no body is required', async () => {
		const token = await c.apiToken();
		const r = await c.request('POST', `${V1}/transaction/transfer/api/fetch_banks`, undefined, { authorization: `Bearer ${token}` });
		expect(r.body.status).toBe(true);
	});

	it('checks auth before the body', async () => {
		expectError(await c.post(`${V1}/account/api/get_account_balance`, { account_number: '1' }), 401, '41');
	});

	it('answers unknown paths with 404 / 99', async () => {
		expectError(await c.api('account/api/no_such_thing', {}), 404, '99', /No such endpoint/);
	});
});
