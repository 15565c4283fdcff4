import type { IDataObject } from 'n8n-workflow';

import { DASHBOARD, useBankFixture } from './harness/bankFixture';
import { runNode } from './harness/runNode';

const fx = useBankFixture();

const UNKNOWN_ID = '3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b';

function run(resource: string, operation: string, parameters: IDataObject = {}, items?: IDataObject[], continueOnFail = false) {
	return runNode(fx.credentials, {
		parameters: { authentication: 'dashboardUser', resource, operation, ...parameters },
		credentials: DASHBOARD,
		items,
		continueOnFail,
	});
}

/** The seeded business's members in the bank's own state. */
function bankMembers() {
	const businessId = fx.bank.bank.main.id;
	return [...fx.bank.bank.members.values()].filter((m) => m.businessId === businessId);
}

function roleId(name: string): string {
	return [...fx.bank.bank.roles.values()].find((r) => r.name === name)!.id;
}

/** Asserts that `body` made no request at all. */
async function sendsNothing(body: () => Promise<unknown>) {
	const before = fx.bank.requests().length;
	await body();
	expect(fx.bank.requests().length).toBe(before);
}

describe('Member → Get Many', () => {
	test('Return All gives every member once; Limit gives exactly the limit', async () => {
		const all = await run('member', 'getAll', { returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.json.map((m) => m.email).sort()).toEqual(bankMembers().map((m) => m.email).sort());
		expect(all.json[0]).toEqual(
			expect.objectContaining({ id: expect.any(String), email: expect.any(String), user_role_id: expect.any(String), is_active: expect.any(Boolean) }),
		);
		const some = await run('member', 'getAll', { returnAll: false, limit: 2 });
		expect(some.json).toHaveLength(2);
	});

	test('filters and sorting reach the bank', async () => {
		const inactive = await run('member', 'getAll', { returnAll: true, filters: { isActive: false } });
		expect(inactive.json.map((m) => m.email).sort()).toEqual(bankMembers().filter((m) => !m.isActive).map((m) => m.email).sort());
		expect(inactive.json.length).toBeGreaterThan(0);

		const search = await run('member', 'getAll', { returnAll: true, filters: { search: 'FATIMA' } });
		expect(search.json.map((m) => m.email)).toEqual(['fatima.bello@sandbox.bank']);

		const initiators = await run('member', 'getAll', { returnAll: true, filters: { roleId: roleId('INITIATOR') } });
		expect(initiators.json.map((m) => m.email).sort()).toEqual(['chinedu.eze@sandbox.bank', 'ngozi.nwosu@sandbox.bank']);

		const joined = await run('member', 'getAll', {
			returnAll: true,
			filters: { startDate: '2025-02-01', endDate: '2025-03-31' },
			options: { sortBy: 'email', sortOrder: 'asc' },
		});
		expect(joined.json.map((m) => m.email)).toEqual(['chinedu.eze@sandbox.bank', 'fatima.bello@sandbox.bank', 'tunde.adeyemi@sandbox.bank']);
	});

	test('a bank error fails the item with its code', async () => {
		fx.bank.addFault({ match: 'fetch_members', errorCode: '83', times: 1 });
		const failed = await run('member', 'getAll', { returnAll: true }, undefined, true);
		expect(failed.json).toEqual([expect.objectContaining({ response_code: '83' })]);
	});

	test('invalid filters send nothing', async () => {
		await sendsNothing(async () => {
			for (const [filters, message] of [
				[{ startDate: '2025-03-01', endDate: '2025-02-01' }, /Start Date must not be after End Date/],
				[{ date: '2025-02-30' }, /Date is not a real calendar date/],
				[{ roleId: 'admin' }, /Role ID must be a UUID/],
			] as Array<[IDataObject, RegExp]>) {
				const result = await run('member', 'getAll', { returnAll: true, filters });
				expect(result.error!.message).toMatch(message);
			}
		});
	});
});

describe('Member → Get', () => {
	test('returns one member by ID', async () => {
		const member = bankMembers().find((m) => m.email === 'tunde.adeyemi@sandbox.bank')!;
		const result = await run('member', 'get', { userId: member.id });
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([expect.objectContaining({ id: member.id, email: member.email, first_name: 'Tunde', last_name: 'Adeyemi' })]);
	});

	test('an unknown ID is the bank\'s not-found error', async () => {
		const result = await run('member', 'get', { userId: UNKNOWN_ID });
		expect(result.error).toMatchObject({ name: 'NodeApiError', context: { responseCode: '25' } });
	});

	test('an ID that is not a UUID sends nothing', async () => {
		await sendsNothing(async () => {
			const result = await run('member', 'get', { userId: '12345' });
			expect(result.error!.message).toMatch(/User ID must be a UUID.*item 1/);
		});
	});
});

describe('Member → Invite', () => {
	const invite = (items: IDataObject[], continueOnFail = false) =>
		run(
			'member',
			'invite',
			{ email: '={{ $json.email }}', firstName: '={{ $json.first }}', lastName: '={{ $json.last }}', roleId: '={{ $json.role }}' },
			items,
			continueOnFail,
		);

	test('invites a member: the bank records the invitation and the node says so', async () => {
		const result = await invite([{ email: 'kemi.afolabi@example.com', first: 'Kemi', last: 'Afolabi', role: roleId('REVIEWER') }]);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ invited: true, email: 'kemi.afolabi@example.com' }]);
		expect(fx.bank.bank.invitations.filter((i) => i.email === 'kemi.afolabi@example.com')).toHaveLength(1);
		expect(bankMembers().find((m) => m.email === 'kemi.afolabi@example.com')).toMatchObject({ isActive: false, roleId: roleId('REVIEWER') });
	});

	test('invitations are sent one at a time by default', async () => {
		fx.bank.addFault({ match: 'add_member', latencyMs: 100 });
		const items = Array.from({ length: 4 }, (_, i) => ({ email: `serial${i}@example.com`, first: 'Serial', last: `${i}`, role: roleId('REVIEWER') }));
		const started = Date.now();
		const result = await invite(items);
		expect(result.error).toBeUndefined();
		// In parallel the four 100 ms answers would take about 200 ms; one after another at least 400 ms.
		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
	});

	test('120 invitations in one run, paired in order; then Return All pages through every member exactly once', async () => {
		const items = Array.from({ length: 120 }, (_, i) => ({ email: `bulk${i}@example.com`, first: 'Bulk', last: `Member ${i}`, role: roleId('INITIATOR') }));
		const result = await invite(items);
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(120);
		expect(result.items.map((i) => i.pairedItem)).toEqual(items.map((_, item) => ({ item })));

		const pagesBefore = fx.count('/fetch_members');
		const all = await run('member', 'getAll', { returnAll: true });
		const ids = all.json.map((m) => m.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.length).toBe(bankMembers().length);
		expect(ids.length).toBeGreaterThan(120);
		expect(fx.count('/fetch_members') - pagesBefore).toBe(2);
	});

	test('an e-mail already on the team is the bank\'s 26; an unknown role its 25', async () => {
		const result = await invite(
			[
				{ email: 'fatima.bello@sandbox.bank', first: 'Fatima', last: 'Bello', role: roleId('REVIEWER') },
				{ email: 'new.person@example.com', first: 'New', last: 'Person', role: UNKNOWN_ID },
			],
			true,
		);
		expect(result.json.map((r) => r.response_code)).toEqual(['26', '25']);
		expect(bankMembers().some((m) => m.email === 'new.person@example.com')).toBe(false);
	});

	test('invalid input sends nothing', async () => {
		await sendsNothing(async () => {
			for (const [item, message] of [
				[{ email: 'not-an-email', first: 'A', last: 'B', role: roleId('REVIEWER') }, /Email must be a valid e-mail address/],
				[{ email: 'a@example.com', first: ' ', last: 'B', role: roleId('REVIEWER') }, /First Name must not be empty/],
				[{ email: 'a@example.com', first: 'A', last: 'B'.repeat(151), role: roleId('REVIEWER') }, /Last Name must be at most 150/],
				[{ email: 'a@example.com', first: 'A', last: 'B', role: 'REVIEWER' }, /Role ID must be a UUID/],
			] as Array<[IDataObject, RegExp]>) {
				const result = await invite([item]);
				expect(result.error!.message).toMatch(message);
			}
		});
	});
});

describe('Permission → Get Many', () => {
	test('lists the permission codes; Limit is exact', async () => {
		const all = await run('permission', 'getAll', { returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.json.map((p) => p.code)).toEqual(fx.bank.bank.permissions.map((p) => p.code));
		expect(all.json).toContainEqual(expect.objectContaining({ code: 'transfer.initiate', name: expect.any(String), id: expect.any(String) }));
		const some = await run('permission', 'getAll', { returnAll: false, limit: 3 });
		expect(some.json).toHaveLength(3);
	});

	test('a bank error fails the item with its code', async () => {
		fx.bank.addFault({ match: 'fetch_permissions', errorCode: '83', times: 1 });
		const result = await run('permission', 'getAll', { returnAll: true });
		expect(result.error).toMatchObject({ context: { responseCode: '83' } });
	});

	test('a limit below 1 sends nothing', async () => {
		await sendsNothing(async () => {
			const result = await run('permission', 'getAll', { returnAll: false, limit: '={{ 0 }}' });
			expect(result.error!.message).toMatch(/Limit must be at least 1/);
		});
	});
});

describe('Role → Create, Role → Delete', () => {
	test('creates a role from a comma list or an array of codes', async () => {
		const fromText = await run('role', 'create', {
			name: 'Payout Initiator',
			permissionCodes: 'account.view, transfer.initiate,account.view',
			additionalFields: { description: 'Runs payouts from the sheet' },
		});
		expect(fromText.error).toBeUndefined();
		expect(fromText.json[0]).toMatchObject({ name: 'Payout Initiator', description: 'Runs payouts from the sheet', id: expect.any(String) });
		expect((fromText.json[0].permissions as IDataObject[]).map((p) => p.code).sort()).toEqual(['account.view', 'transfer.initiate']);

		const fromList = await run('role', 'create', { name: 'Auditor', permissionCodes: '={{ ["transaction.view", "settlement.view"] }}' });
		expect(fromList.error).toBeUndefined();
		expect((fromList.json[0].permissions as IDataObject[]).map((p) => p.code).sort()).toEqual(['settlement.view', 'transaction.view']);
		expect([...fx.bank.bank.roles.values()].some((r) => r.name === 'Auditor')).toBe(true);
	});

	test('a duplicate name is the bank\'s 26; an unknown code is refused by the bank', async () => {
		const result = await run('role', 'create', { name: '={{ $json.name }}', permissionCodes: '={{ $json.codes }}' }, [
			{ name: 'ADMIN', codes: 'account.view' },
			{ name: 'Ghost', codes: 'ghost.power' },
		], true);
		expect(result.json.map((r) => r.response_code)).toEqual(['26', '99']);
		expect(String(result.json[1].error)).toContain('ghost.power');
		expect([...fx.bank.bank.roles.values()].some((r) => r.name === 'Ghost')).toBe(false);
	});

	test('invalid name or codes send nothing', async () => {
		await sendsNothing(async () => {
			for (const [parameters, message] of [
				[{ name: 'R'.repeat(256), permissionCodes: 'account.view' }, /Name must be at most 255 characters/],
				[{ name: 'Empty', permissionCodes: ' , ' }, /Permission Codes must list at least one permission code/],
				[{ name: 'Flat', permissionCodes: 'admin' }, /Permission Codes must hold codes in dotted form/],
			] as Array<[IDataObject, RegExp]>) {
				const result = await run('role', 'create', parameters);
				expect(result.error!.message).toMatch(message);
			}
		});
	});

	test('deletes a role no one holds', async () => {
		const created = await run('role', 'create', { name: 'Temporary', permissionCodes: 'account.view' });
		const id = created.json[0].id as string;
		const result = await run('role', 'delete', { roleId: id });
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ deleted: true, role_id: id }]);
		expect(fx.bank.bank.roles.has(id)).toBe(false);
	});

	test('a role members hold, or an unknown one, is refused by the bank and stays', async () => {
		const held = roleId('AUTHORIZER');
		const result = await run('role', 'delete', { roleId: '={{ $json.id }}' }, [{ id: held }, { id: UNKNOWN_ID }], true);
		expect(result.json.map((r) => r.response_code)).toEqual(['99', '25']);
		expect(String(result.json[0].error)).toMatch(/still hold it/);
		expect(fx.bank.bank.roles.has(held)).toBe(true);
	});

	test('an ID that is not a UUID sends nothing', async () => {
		await sendsNothing(async () => {
			const result = await run('role', 'delete', { roleId: 'AUTHORIZER' });
			expect(result.error!.message).toMatch(/Role ID must be a UUID/);
		});
	});
});
