/**
 * A credential marked Read Only (credentials/common.ts, nodes/common/actions/readOnly.ts): every write made with it
 * is refused before any request, on BaaS, BaaS Dashboard, BaaS version 1 and their AI-tool twins; reads work as
 * before; a credential saved without the field writes as before. "No request" is counted at the sandbox bank,
 * and what the bank holds is read through its /__sandbox/ledger route.
 */
import type { IDataObject } from 'n8n-workflow';

import { OPERATIONS } from './harness/accounts';
import { API, DASHBOARD } from './harness/bankFixture';
import { PACKAGE_PREFIX } from './harness/nodeTypes';
import { rl } from './harness/nodeParameters';
import type { RunNodeOptions } from './harness/runNode';
import { runNode } from './harness/runNode';
import { runAsTool } from './harness/toolRun';
import { createParams, CUSTOMER, newReference, POOL, useTransferBank } from './harness/transfers';

const { fx, transfersWith } = useTransferBank();

const BAAS_V2 = { nodeType: `${PACKAGE_PREFIX}.baas`, typeVersion: 2 };
const BAAS_V1 = { nodeType: `${PACKAGE_PREFIX}.baas`, typeVersion: 1 };
const DASHBOARD_NODE = { nodeType: `${PACKAGE_PREFIX}.baasDashboard`, typeVersion: 1 };
const RO_API = { baasApi: 'api-ro' };
const RO_WEB = { baasDashboardApi: 'web-ro' };
const RO_API_NAME = 'baasApi api-ro';
const RO_WEB_NAME = 'baasDashboardApi web-ro';

beforeAll(() => {
	fx.credentials.add('api-ro', 'baasApi', { ...fx.credentials.stored('api-1')!, readOnly: true });
	fx.credentials.add('web-ro', 'baasDashboardApi', { ...fx.credentials.stored('web-1')!, readOnly: true });
});

const roleId = (name: string) => [...fx.bank.bank.roles.values()].find((role) => role.name === name)!.id;

/** What the bank holds, as its /__sandbox/ledger route shows it (without the request-dependent parts). */
async function ledger(): Promise<IDataObject> {
	const answer = await fetch(`${fx.bank.url}/__sandbox/ledger`);
	const { data } = (await answer.json()) as { data: IDataObject };
	const { accounts, totals, transfers, webhooks, invitations, roles } = data;
	return { accounts, totals, transfers, webhooks, invitations, roles };
}

/** Runs `action`; returns its result and the bank requests made meanwhile, and asserts the ledger did not change. */
async function nothingReachesTheBank<T>(action: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
	const before = await ledger();
	const since = fx.bank.requests().length;
	const result = await action();
	const requests = fx.bank.requests().slice(since).map((request) => request.path);
	expect(await ledger()).toEqual(before);
	return { result, requests };
}

interface Write {
	label: string;
	node: Pick<RunNodeOptions, 'nodeType' | 'typeVersion'>;
	credentials: Record<string, string>;
	credentialName: string;
	kind: 'BaaS API' | 'BaaS Dashboard API';
	parameters: () => IDataObject;
	items: () => IDataObject[];
}

const two = (make: (n: number) => IDataObject) => () => [make(1), make(2)];
const viaApi = { node: BAAS_V2, credentials: RO_API, credentialName: RO_API_NAME, kind: 'BaaS API' as const };
const viaDashboard = { node: DASHBOARD_NODE, credentials: RO_WEB, credentialName: RO_WEB_NAME, kind: 'BaaS Dashboard API' as const };

const WRITES: Write[] = [
	{
		label: 'Transfer → Create',
		...viaApi,
		parameters: () => createParams({ amount: '10.00' }),
		items: two(() => ({ reference_number: newReference('read-only') })),
	},
	{
		label: 'Account → Create',
		...viaApi,
		parameters: () => ({ resource: 'account', operation: 'create', accountName: 'Read Only', email: 'ro@example.com', phone: '08031234567', bvn: '={{ $json.bvn }}' }),
		items: two((n) => ({ bvn: `2221234567${n}` })),
	},
	{
		label: 'Webhook → Create',
		...viaApi,
		parameters: () => ({ resource: 'webhook', operation: 'create', url: '={{ $json.url }}', events: ['TRANSFER_SUCCESS'] }),
		items: two((n) => ({ url: `https://hooks.example.com/read-only-${n}` })),
	},
	{
		label: 'Account → Update Status',
		...viaDashboard,
		parameters: () => ({ resource: 'account', operation: 'updateStatus', accountNumber: rl('={{ $json.account }}', 'id'), status: 'inactive' }),
		items: two((n) => ({ account: n === 1 ? OPERATIONS : CUSTOMER })),
	},
	{
		label: 'Member → Invite',
		...viaDashboard,
		parameters: () => ({ resource: 'member', operation: 'invite', email: '={{ $json.email }}', firstName: 'Read', lastName: 'Only', roleId: roleId('REVIEWER') }),
		items: two((n) => ({ email: `read.only.${n}@example.com` })),
	},
	{
		label: 'Role → Create',
		...viaDashboard,
		parameters: () => ({ resource: 'role', operation: 'create', name: '={{ $json.name }}', permissionCodes: 'account.view' }),
		items: two((n) => ({ name: `Read Only ${n}` })),
	},
	{
		label: 'Role → Delete',
		...viaDashboard,
		parameters: () => ({ resource: 'role', operation: 'delete', roleId: roleId('REVIEWER') }),
		items: two(() => ({})),
	},
];

const refusal = (write: Pick<Write, 'label' | 'kind' | 'credentialName'>) =>
	`${write.label} was refused: the ${write.kind} credential "${write.credentialName}" is read-only, so nothing that changes something at the bank is made with it. Nothing was sent to the bank. To make this change, have a person approve it and run it with a credential that may write (Read Only off).`;

/** The credential refuses a write (so a test of reads is about a read-only credential). */
async function refusesWrites(credentials: Record<string, string>) {
	const write = WRITES.find((w) => w.credentials === credentials && w.label.endsWith('Create'))!;
	const run = await runNode(fx.credentials, { ...write.node, parameters: write.parameters(), credentials, items: write.items().slice(0, 1) });
	expect(run.error?.message).toBe(refusal(write));
}

describe('a read-only credential refuses every write before any request', () => {
	test.each(WRITES.map((write) => [write.label, write] as const))('%s: every item is refused (outcome refused, paired), nothing reaches the bank', async (_label, write) => {
		const { result: run, requests } = await nothingReachesTheBank(() =>
			runNode(fx.credentials, { ...write.node, parameters: write.parameters(), credentials: write.credentials, items: write.items(), continueOnFail: true }),
		);
		expect(requests).toEqual([]);
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const json of run.json) expect(json).toMatchObject({ error: refusal(write), outcome: 'refused' });
	});

	test('without On Error: Continue the run fails with the refusal; nothing reaches the bank, no money moves', async () => {
		const reference = newReference('read-only-stop');
		const { result: run, requests } = await nothingReachesTheBank(() =>
			runNode(fx.credentials, { ...BAAS_V2, parameters: createParams({ amount: '10.00' }), credentials: RO_API, items: [{ reference_number: reference }] }),
		);
		expect(requests).toEqual([]);
		expect(run.error).toMatchObject({ name: 'NodeOperationError', message: refusal({ ...viaApi, label: 'Transfer → Create' }) });
		expect(transfersWith(reference)).toEqual([]);
	});

	test('with the error output, each item goes there with its outcome', async () => {
		const write = WRITES.find((w) => w.label === 'Role → Create')!;
		const { result: run } = await nothingReachesTheBank(() =>
			runNode(fx.credentials, { ...write.node, parameters: write.parameters(), credentials: write.credentials, items: write.items(), continueOnFail: 'errorOutput' }),
		);
		expect(run.items).toEqual([]);
		expect(run.errorItems.map((item) => item.json)).toEqual([
			expect.objectContaining({ error: refusal(write), message: expect.stringMatching(/^Outcome: refused\. To make this change, have a person approve it/) }),
			expect.objectContaining({ error: refusal(write) }),
		]);
	});

	test('BaaS version 1: the credential of the write decides, whatever else the node carries', async () => {
		// Account → Update Status is made with the dashboard credential: refused when that one is read-only…
		const updateStatus = { authentication: 'dashboardUser', resource: 'account', operation: 'updateStatus', accountNumber: rl(CUSTOMER, 'id'), status: 'inactive' };
		const { result: refused, requests } = await nothingReachesTheBank(() =>
			runNode(fx.credentials, { ...BAAS_V1, parameters: updateStatus, credentials: { ...API, ...RO_WEB } }),
		);
		expect(requests).toEqual([]);
		expect(refused.error?.message).toBe(refusal({ ...viaDashboard, label: 'Account → Update Status' }));
		// …and made when only the API-client credential is read-only.
		const made = await runNode(fx.credentials, { ...BAAS_V1, parameters: updateStatus, credentials: { ...RO_API, ...DASHBOARD } });
		expect(made.error).toBeUndefined();
		expect(fx.bank.bank.accounts.get(CUSTOMER)!.status).toBe('inactive');
		await runNode(fx.credentials, { ...BAAS_V1, parameters: { ...updateStatus, status: 'active' }, credentials: DASHBOARD });
	});

	test('Send money checks the name with a read-only dashboard credential and pays with a writable API credential', async () => {
		const reference = newReference('name-check-read-only');
		await refusesWrites(RO_WEB);
		const run = await runNode(fx.credentials, {
			...BAAS_V2,
			parameters: createParams({ amount: '10.00', checkBeneficiaryName: true, additionalFields: { beneficiaryAccountName: 'Adaeze Okonkwo' } }),
			credentials: { ...API, ...RO_WEB },
			items: [{ reference_number: reference }],
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ reference_number: reference, status: 'successful' });
		expect(transfersWith(reference)).toHaveLength(1);
	});
});

describe('a read-only credential still reads', () => {
	test.each([
		['Account → Get Balance', BAAS_V2, RO_API, { resource: 'account', operation: 'getBalance', accountNumber: rl(POOL, 'id') }, { account_number: POOL }],
		['Transaction → Get Many', BAAS_V2, RO_API, { resource: 'transaction', operation: 'getAll', returnAll: false, limit: 2 }, { reference_number: expect.any(String) }],
		['Bank → Get Many', BAAS_V2, RO_API, { resource: 'bank', operation: 'getAll' }, { code: '090823' }],
		['Token → Validate', BAAS_V2, RO_API, { resource: 'token', operation: 'validate' }, { valid: true }],
		['Transfer → Name Enquiry', DASHBOARD_NODE, RO_WEB, { resource: 'transfer', operation: 'nameEnquiry', beneficiaryAccountNumber: CUSTOMER, bankCode: rl('090823', 'id'), sourceAccountNumber: rl(POOL, 'id') }, { account_number: CUSTOMER }],
		['Account → Get Total Balance', DASHBOARD_NODE, RO_WEB, { resource: 'account', operation: 'getTotalBalance' }, { total_balance: expect.stringMatching(/^\d+\.\d+$/) }],
		['Member → Get Many', DASHBOARD_NODE, RO_WEB, { resource: 'member', operation: 'getAll', returnAll: true }, { email: expect.any(String) }],
		['Session → Verify', DASHBOARD_NODE, RO_WEB, { resource: 'session', operation: 'verify' }, { valid: true }],
	] as const)('%s', async (_label, node, credentials, parameters, expected) => {
		await refusesWrites(credentials);
		const run = await runNode(fx.credentials, { ...node, parameters: parameters as IDataObject, credentials });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject(expected);
	});

	test('Transfer → Get Status of a payment made with a writable credential', async () => {
		const reference = newReference('status-read-only');
		await refusesWrites(RO_API);
		await runNode(fx.credentials, { ...BAAS_V2, parameters: createParams({ amount: '3.00' }), credentials: API, items: [{ reference_number: reference }] });
		const run = await runNode(fx.credentials, { ...BAAS_V2, parameters: { resource: 'transfer', operation: 'getStatus', referenceNumber: reference }, credentials: RO_API });
		expect(run.json).toEqual([expect.objectContaining({ reference_number: reference, status: 'successful' })]);
	});
});

describe('a credential saved without the field (or with it off) writes as before', () => {
	test.each([
		['saved before the field existed', 'api-1'],
		['Read Only off', 'api-rw'],
	])('%s: Webhook → Create is made (the same credential with Read Only on is refused)', async (_label, id) => {
		if (id === 'api-rw') fx.credentials.add(id, 'baasApi', { ...fx.credentials.stored('api-1')!, readOnly: false });
		expect(fx.credentials.stored(id)?.readOnly).toBe(id === 'api-1' ? undefined : false);
		await refusesWrites(RO_API);
		const url = `https://hooks.example.com/writable-${id}`;
		const run = await runNode(fx.credentials, { ...BAAS_V2, parameters: { resource: 'webhook', operation: 'create', url, events: ['TRANSFER_SUCCESS'] }, credentials: { baasApi: id } });
		expect(run.error).toBeUndefined();
		expect(fx.bank.bank.webhooks.some((webhook) => webhook.url === url)).toBe(true);
	});
});

describe('as an AI tool', () => {
	const sendMoney = {
		...createParams(),
		referenceNumber: "={{ $fromAI('reference', 'Your reference for this payment', 'string') }}",
		amount: "={{ $fromAI('amount', 'Amount in NGN', 'string') }}",
		checkBeneficiaryName: true,
		additionalFields: { beneficiaryAccountName: "={{ $fromAI('beneficiary_name', 'The name Name Enquiry returned', 'string') }}" },
	};

	test('Send money a person approved in human review is refused with a read-only API credential; no request, no money moves', async () => {
		const reference = newReference('tool-read-only');
		const { result: run, requests } = await nothingReachesTheBank(() =>
			runAsTool(fx.credentials, {
				way: 'review',
				parameters: sendMoney,
				credentials: { ...RO_API, ...DASHBOARD },
				input: { reference, amount: '25.00', beneficiary_name: 'Adaeze Okonkwo' },
			}),
		);
		expect(requests).toEqual([]);
		expect((run.answers[0].answer as IDataObject).error).toBe(refusal({ ...viaApi, label: 'Transfer → Create' }));
		expect(transfersWith(reference)).toEqual([]);
	});

	test.each([
		['an n8n 2.x agent', 'agent'],
		['an n8n 1.x agent (tools in its own step)', 'inProcessAgent'],
	] as const)('the dashboard tool refuses Role → Create for %s; no request', async (_label, way) => {
		const { result: run, requests } = await nothingReachesTheBank(() =>
			runAsTool(fx.credentials, {
				way,
				dashboard: true,
				parameters: { resource: 'role', operation: 'create', name: "={{ $fromAI('name', 'The role', 'string') }}", permissionCodes: 'account.view' },
				credentials: RO_WEB,
				input: { name: 'Agent Role' },
			}),
		);
		expect(requests).toEqual([]);
		// An agent that runs the tool in its own step reads n8n's text of the error: the message, then its details.
		const error = String(way === 'agent' ? (run.answers[0].answer as IDataObject).error : run.answers[0].error);
		expect(error.startsWith(refusal({ ...viaDashboard, label: 'Role → Create' }))).toBe(true);
	});

	test('an MCP client reads with a read-only credential', async () => {
		await refusesWrites(RO_API);
		const run = await runAsTool(fx.credentials, {
			way: 'mcp',
			parameters: { resource: 'account', operation: 'getBalance', accountNumber: rl("={{ $fromAI('account_number', 'The account', 'string') }}", 'id') },
			credentials: RO_API,
			input: { account_number: POOL },
		});
		expect(run.answers[0].answer).toEqual([expect.objectContaining({ account_number: POOL, balance: expect.stringMatching(/^\d+\.\d+$/) })]);
	});
});
