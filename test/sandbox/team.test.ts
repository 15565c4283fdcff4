import { boot, Client, expectError, expectOk } from './helpers';
import type { SandboxHandle } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 10 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

interface MemberItem {
	id: string;
	email: string;
	first_name: string;
	last_name: string;
	user_role_id: string;
	is_active: boolean;
	last_login: string | null;
	date_joined: string;
}
interface RoleItem {
	id: string;
	name: string;
	description: string;
	permissions: Array<{ code: string; name: string }>;
	created_at: string;
}

const roleId = (name: string) => [...sb.bank.roles.values()].find((r) => r.name === name)?.id as string;
const members = (body: unknown = {}) => c.web<MemberItem[]>('auth/web/fetch_members', body);

describe('members', () => {
	it('an empty body returns every member with the contract fields', async () => {
		const r = await members();
		expectOk(r);
		expect(r.body.data).toHaveLength(6);
		const admin = r.body.data.find((m) => m.email === 'admin@sandbox.bank') as MemberItem;
		expect(admin.user_role_id).toBe(roleId('ADMIN'));
		expect(Object.keys(admin).sort()).toEqual(['date_joined', 'email', 'first_name', 'id', 'is_active', 'last_login', 'last_name', 'user_role_id']);
		expect(r.body.data.some((m) => m.last_login === null)).toBe(true);
	});

	it('pages, sorts and filters', async () => {
		const p1 = await members({ page: 1, page_size: 4, sort_by: 'email', sort_order: 'asc' });
		const p2 = await members({ page: 2, page_size: 4, sort_by: 'email', sort_order: 'asc' });
		const emails = [...p1.body.data, ...p2.body.data].map((m) => m.email);
		expect(emails).toHaveLength(6);
		expect(emails).toEqual([...emails].sort());
		const inactive = await members({ filters: { is_active: false } });
		expect(inactive.body.data.map((m) => m.email)).toEqual(['emeka.obi@sandbox.bank']);
		const initiators = await members({ filters: { role_id: roleId('INITIATOR') } });
		expect(initiators.body.data).toHaveLength(2);
		const search = await members({ filters: { search: 'BELLO' } });
		expect(search.body.data.map((m) => m.first_name)).toEqual(['Fatima']);
		const joined = await members({ filters: { start_date: '2025-02-03', end_date: '2025-03-11' }, sort_by: 'date_joined', sort_order: 'asc' });
		expect(joined.body.data.map((m) => m.first_name)).toEqual(expect.arrayContaining(['Chinedu', 'Fatima', 'Tunde']));
		expect(joined.body.data).toHaveLength(3);
	});

	it('get_member_detail returns one member; unknown -> 25', async () => {
		const id = [...sb.bank.members.values()][1].id;
		const r = await c.web<MemberItem>('auth/web/get_member_detail', { user_id: id });
		expectOk(r);
		expect(r.body.data.id).toBe(id);
		expectError(await c.web('auth/web/get_member_detail', { user_id: '00000000-0000-4000-8000-000000000000' }), 200, '25');
	});

	it('add_member returns {} and records an invitation and an inactive member', async () => {
		const r = await c.web('auth/web/add_member', { email: 'new.person@example.com', first_name: 'New', last_name: 'Person', role_id: roleId('REVIEWER') });
		expectOk(r);
		expect(r.body.data).toEqual({});
		const ledger = await c.control<{ invitations: Array<{ email: string; role_id: string }> }>('GET', 'ledger');
		expect(ledger.body.data.invitations).toEqual([expect.objectContaining({ email: 'new.person@example.com', role_id: roleId('REVIEWER') })]);
		const list = await members({ filters: { search: 'new.person' } });
		expect(list.body.data[0]).toMatchObject({ is_active: false, last_login: null });
	});

	it('add_member: duplicate e-mail -> 26, unknown role -> 25', async () => {
		expectError(await c.web('auth/web/add_member', { email: 'FATIMA.BELLO@sandbox.bank', first_name: 'F', last_name: 'B', role_id: roleId('REVIEWER') }), 200, '26');
		expectError(await c.web('auth/web/add_member', { email: 'x@example.com', first_name: 'X', last_name: 'Y', role_id: '00000000-0000-4000-8000-000000000000' }), 200, '25');
		expect(sb.bank.invitations).toHaveLength(0);
	});
});

describe('permissions and roles', () => {
	it('lists the permission codes in dotted form', async () => {
		const r = await c.web<Array<{ id: string; code: string; name: string; description: string }>>('auth/web/fetch_permissions');
		expectOk(r);
		expect(r.body.data.map((p) => p.code)).toEqual(
			expect.arrayContaining(['account.view', 'transaction.view', 'transfer.initiate', 'transfer.approve', 'webhook.manage']),
		);
		expect(r.body.data.every((p) => /^[a-z]+\.[a-z]+$/.test(p.code) && p.id && p.name)).toBe(true);
	});

	it('create_role returns the role; duplicate name -> 26; unknown permission -> 99 naming it', async () => {
		const r = await c.web<RoleItem>('auth/web/create_role', { name: 'Auditor', description: 'Reads', permission_codes: ['account.view', 'transaction.view'] });
		expectOk(r);
		expect(r.body.data).toMatchObject({ name: 'Auditor', description: 'Reads' });
		expect(r.body.data.permissions).toEqual([
			{ code: 'account.view', name: 'View accounts' },
			{ code: 'transaction.view', name: 'View transactions' },
		]);
		expect(r.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
		expectError(await c.web('auth/web/create_role', { name: 'auditor', permission_codes: ['account.view'] }), 200, '26');
		expectError(await c.web('auth/web/create_role', { name: 'Other', permission_codes: ['account.view', 'money.print'] }), 400, '99', "'money.print'");
		const bare = await c.web<RoleItem>('auth/web/create_role', { name: 'Bare', permission_codes: ['member.view'] });
		expect(bare.body.data.description).toBe('');
	});

	it('delete_role deletes an unused role', async () => {
		const r = await c.web<RoleItem>('auth/web/create_role', { name: 'Temp', permission_codes: ['account.view'] });
		expectOk(await c.web('auth/web/delete_role', { role_id: r.body.data.id }));
		expect(sb.bank.roles.has(r.body.data.id)).toBe(false);
		expectError(await c.web('auth/web/delete_role', { role_id: r.body.data.id }), 200, '25');
	});

	it('delete_role refuses a role a member holds, and the caller’s own role, with 409 / 99', async () => {
		expectError(await c.web('auth/web/delete_role', { role_id: roleId('INITIATOR') }), 409, '99', /still hold/);
		expectError(await c.web('auth/web/delete_role', { role_id: roleId('ADMIN') }), 409, '99', /your own account/);
		expect(sb.bank.roles.has(roleId('INITIATOR'))).toBe(true);
	});

	it('a role held only by an invited member cannot be deleted either', async () => {
		const r = await c.web<RoleItem>('auth/web/create_role', { name: 'Invitees', permission_codes: ['account.view'] });
		await c.web('auth/web/add_member', { email: 'inv@example.com', first_name: 'I', last_name: 'V', role_id: r.body.data.id });
		expectError(await c.web('auth/web/delete_role', { role_id: r.body.data.id }), 409, '99');
	});
});
