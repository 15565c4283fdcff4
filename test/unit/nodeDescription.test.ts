import type { INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Baas } from '../../nodes/Baas/Baas.node';
import codex from '../../nodes/Baas/Baas.node.json';
import { MOST_READS_IN_FLIGHT } from '../../nodes/common/actions/commonFields';
import { RESOURCES } from '../../nodes/common/actions/resources';
import { authenticationsFor } from '../../nodes/common/actions/selectors';
import { BaasDashboard } from '../../nodes/BaasDashboard/BaasDashboard.node';
import dashboardCodex from '../../nodes/BaasDashboard/BaasDashboard.node.json';
import { BaasPollTrigger } from '../../nodes/BaasPollTrigger/BaasPollTrigger.node';
import { BaasTrigger } from '../../nodes/BaasTrigger/BaasTrigger.node';

const baas = new Baas();
const twoApis = baas.nodeVersions[1].description;
const apiClient = baas.nodeVersions[2].description;
const dashboard = new BaasDashboard().description;
const options = (property: INodeProperties | undefined) => (property?.options ?? []) as INodePropertyOptions[];
const shownFor = (property: INodeProperties, resource: string) => property.displayOptions?.show?.resource?.includes(resource);
const selectorsOf = (description: INodeTypeDescription, resource: string) =>
	description.properties.filter((p) => p.name === 'operation' && shownFor(p, resource));
/** resource → its operations, as n8n's picker reads them: the first Operation parameter shown for each resource. */
function picker(description: INodeTypeDescription): Record<string, string[]> {
	const resources = description.properties.filter((p) => p.name === 'resource');
	return Object.fromEntries(
		resources.flatMap(options).map((resource) => [
			String(resource.value),
			options(selectorsOf(description, String(resource.value))[0]).map((o) => String(o.value)).sort(),
		]),
	);
}
/** resource → the operations one API offers, from the router's table and each operation's reachability. */
const offeredBy = (api: 'apiClient' | 'dashboardUser') =>
	Object.fromEntries(
		Object.entries(RESOURCES)
			.map(([resource, ops]) => [resource, Object.keys(ops).filter((op) => authenticationsFor(resource, op).includes(api)).sort()] as const)
			.filter(([, ops]) => ops.length > 0),
	);

// n8n's credential tester takes the first node listing a credential with a testedBy and calls that node's
// methods.credentialTest[testedBy] (a node without it fails the Test): every node listing ours must have it.
test.each([
	['BaaS v1', baas.nodeVersions[1]],
	['BaaS v2', baas.nodeVersions[2]],
	['BaaS Dashboard', new BaasDashboard()],
	['BaaS Trigger', new BaasTrigger()],
	['BaaS (Polling) Trigger', new BaasPollTrigger()],
])('%s: each credential it lists is tested by a function it has', (_name, node) => {
	const credentials = node.description.credentials ?? [];
	expect(credentials.length).toBeGreaterThan(0);
	for (const credential of credentials) {
		expect(credential.testedBy).toBe('baasSignIn');
		expect(typeof node.methods?.credentialTest?.baasSignIn).toBe('function');
	}
});

// The browser tests (test/e2e) check what n8n's picker shows; these check the description shape it is built from.
describe('the action nodes, as the node picker reads them', () => {
	test.each([
		['BaaS (version 2, the default)', apiClient, 'apiClient', 'baasApi'],
		['BaaS Dashboard', dashboard, 'dashboardUser', 'baasDashboardApi'],
	] as const)('%s: one Resource parameter, one Operation parameter per resource with exactly what its API offers', (_name, description, api, credential) => {
		expect(description.properties.filter((p) => p.name === 'resource')).toHaveLength(1);
		expect(picker(description)).toEqual(offeredBy(api));
		for (const resource of Object.keys(offeredBy(api))) expect(selectorsOf(description, resource)).toHaveLength(1);
		// One credential with no condition: n8n's editor then preselects a credential of that type, never the other.
		// (BaaS also asks for a dashboard credential, but only once Send money's Check Beneficiary Name is turned on.)
		// Its Test button runs the node's credentialTest (credentialTest.ts).
		expect(description.credentials?.filter((c) => !c.displayOptions)).toEqual([{ name: credential, required: true, testedBy: 'baasSignIn' }]);
		expect(description.properties.find((p) => p.name === 'authentication')).toMatchObject({ type: 'hidden', default: api });
		expect(description.usableAsTool).toBe(true);
	});

	test('together the two nodes offer all 26 operations, the five both APIs have in each', () => {
		const pairs = (description: INodeTypeDescription) =>
			Object.entries(picker(description)).flatMap(([resource, ops]) => ops.map((op) => `${resource}.${op}`));
		const all = Object.entries(RESOURCES).flatMap(([resource, ops]) => Object.keys(ops).map((op) => `${resource}.${op}`));
		expect(all).toHaveLength(26);
		expect(new Set([...pairs(apiClient), ...pairs(dashboard)])).toEqual(new Set(all));
		expect(pairs(apiClient).filter((pair) => pairs(dashboard).includes(pair)).sort()).toEqual([
			'account.getAll',
			'account.getBalance',
			'reconciliation.getStatement',
			'reconciliation.matchPayments',
			'transaction.getAll',
		]);
	});

	test('a field shows on a one-API node only when that API has it (no field of the other API is left in)', () => {
		for (const [description, api] of [[apiClient, 'apiClient'], [dashboard, 'dashboardUser']] as const) {
			for (const property of description.properties) {
				const authentications = property.displayOptions?.show?.authentication;
				if (authentications) expect(authentications).toContain(api);
			}
		}
	});

	// The condition names the fields from the node's root ("/checkBeneficiaryName"): n8n's editor takes a field named
	// in a credential's condition for an authentication field; 1.x then took the yes/no Check Beneficiary Name for
	// the node's main one, offered only BaaS Dashboard credentials under "Credential to connect with", and hid
	// Resource and Operation (the fields it is shown for), as 2.x does once a node has a main authentication field.
	test('BaaS asks for its second credential (BaaS Dashboard) only for Send money with Check Beneficiary Name on, which version 1 does not show', () => {
		expect(apiClient.credentials?.filter((c) => c.displayOptions)).toEqual([
			{ name: 'baasDashboardApi', required: true, testedBy: 'baasSignIn', displayOptions: { show: { '/resource': ['transfer'], '/operation': ['create'], '/checkBeneficiaryName': [true] } } },
		]);
		const dashboardCredential = apiClient.credentials!.find((c) => c.name === 'baasDashboardApi')!;
		const sendMoney = { resource: 'transfer', operation: 'create' };
		const asked = (parameters: INodeParameters) => NodeHelpers.displayParameter(parameters, dashboardCredential, null, null);
		expect([asked({ ...sendMoney, checkBeneficiaryName: true }), asked({ ...sendMoney, checkBeneficiaryName: false }), asked(sendMoney)]).toEqual([true, false, false]);
		expect(asked({ resource: 'transfer', operation: 'getStatus', checkBeneficiaryName: true })).toBe(false);
		// No credential condition names a field of the node, so n8n's editor finds no authentication field to hide.
		const named = apiClient.credentials!.flatMap((c) => Object.keys(c.displayOptions?.show ?? {}));
		expect(apiClient.properties.filter((p) => named.includes(p.name))).toEqual([]);
		const check = (description: INodeTypeDescription) => description.properties.find((p) => p.name === 'checkBeneficiaryName');
		expect(check(apiClient)?.displayOptions?.show).toMatchObject({ resource: ['transfer'], operation: ['create'], '@version': [{ _cnd: { gte: 2 } }] });
		expect(check(twoApis)?.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 2 } }]);
		expect(check(apiClient)?.default).toBe(false);
	});

	test('version 1 (both APIs behind Authentication) is kept whole, so saved workflows load unchanged', () => {
		expect(twoApis.properties.filter((p) => p.displayName === 'Resource')).toHaveLength(1);
		expect(picker(twoApis)).toEqual(Object.fromEntries(Object.entries(RESOURCES).map(([r, ops]) => [r, Object.keys(ops).sort()])));
		expect(twoApis.credentials?.map((c) => c.name)).toEqual(['baasApi', 'baasDashboardApi']);
		expect(baas.description.defaultVersion).toBe(2);
	});

	test('a Concurrency a form shows is the one the run uses: 1 for every state change, the paced reads\' most for every read', () => {
		const shown = Object.entries(RESOURCES).flatMap(([resource, operations]) =>
			Object.entries(operations).flatMap(([name, operation]) => {
				const concurrency = operation.description.find((p) => p.name === 'options')?.options?.find((o) => 'name' in o && o.name === 'concurrency');
				return concurrency ? [[`${resource}.${name}`, (concurrency as INodeProperties).default, operation.changesState ? 1 : MOST_READS_IN_FLIGHT]] : [];
			}),
		);
		expect(shown.length).toBeGreaterThan(15);
		for (const [operation, shownDefault, runDefault] of shown) expect([operation, shownDefault]).toEqual([operation, runDefault]);
	});

	test('the picker entry reads as the BaaS node (n8n shows the trigger description there)', () => {
		expect(new BaasTrigger().description.description).toBe(apiClient.description);
	});

	// n8n's picker search matches a node's name and codex aliases, not its actions' texts.
	test.each([
		['BaaS', apiClient, codex.alias],
		['BaaS Dashboard', dashboard, dashboardCodex.alias],
	] as const)('%s: every action phrase is a codex alias, so searching the picker for it finds the node', (_name, description, aliases) => {
		const actions = description.properties.filter((p) => p.name === 'operation').flatMap((p) => options(p).map((o) => o.action));
		expect(actions.length).toBeGreaterThan(8);
		for (const action of actions) expect(aliases).toContain(action);
	});
});

describe('canvas subtitles, as a person reads them', () => {
	/** The value map an n8n subtitle expression looks its parameters up in. */
	const mapIn = (expression: string) => JSON.parse(/(\{"[^}]*\})/.exec(expression)![1]) as Record<string, string>;

	test('the action nodes show "Operation: Resource" for every operation', () => {
		for (const description of [twoApis, apiClient, dashboard]) {
			const names = mapIn(String(description.subtitle));
			expect(names['account.getBalance']).toBe('Get Balance: Account');
			expect(names['transfer.create']).toBe('Create: Transfer');
			expect(Object.keys(names)).toHaveLength(26);
		}
	});

	test('both triggers show the selected events by name', () => {
		for (const subtitle of [new BaasTrigger().description.subtitle, new BaasPollTrigger().description.subtitle]) {
			expect(mapIn(String(subtitle))).toEqual({ COLLECTION_SUCCESS: 'Collection Success', TRANSFER_FAILED: 'Transfer Failed', TRANSFER_SUCCESS: 'Transfer Success' });
		}
	});
});
