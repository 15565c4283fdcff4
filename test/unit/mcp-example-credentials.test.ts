/**
 * The MCP server example's BaaS tools carry the read-only sandbox credentials (scripts/n8n/credentials.ts), so a
 * tool that moves money, wired to it by mistake, is refused before any request; the other examples keep theirs.
 */
import { startSandbox } from '../../sandbox';
import type { SandboxHandle } from '../../sandbox';
import { READ_ONLY_API_CREDENTIAL, READ_ONLY_DASHBOARD_CREDENTIAL, readOnlySandboxCredentials, sandboxCredentials } from '../../scripts/n8n/credentials';
import { exampleFiles, readExample } from '../../scripts/n8n/examples';

const READ_ONLY_IDS = [READ_ONLY_API_CREDENTIAL.id, READ_ONLY_DASHBOARD_CREDENTIAL.id];
const baasCredentials = (file: string) =>
	readExample(file)
		.nodes.filter((node) => node.type.startsWith('n8n-nodes-baas.'))
		.map((node) => ({ node: node.name, credentials: node.credentials as Record<string, { id: string; name: string }> }));

describe('the read-only sandbox credentials', () => {
	let bank: SandboxHandle;
	beforeAll(async () => {
		bank = await startSandbox({ port: 0 });
	});
	afterAll(async () => {
		await bank.close();
	});

	test('are the sandbox sign-ins with Read Only on, under their own ids and names', () => {
		const writable = sandboxCredentials(bank);
		const readOnly = readOnlySandboxCredentials(bank);
		expect(readOnly.map(({ id, name, type }) => ({ id, name, type }))).toEqual([
			{ ...READ_ONLY_API_CREDENTIAL, type: 'baasApi' },
			{ ...READ_ONLY_DASHBOARD_CREDENTIAL, type: 'baasDashboardApi' },
		]);
		readOnly.forEach((credential, i) => expect(credential.data).toEqual({ ...writable[i].data, readOnly: true }));
		expect(writable.map((credential) => 'readOnly' in credential.data)).toEqual([false, false]);
	});

	test('carry every BaaS tool of the MCP server example, and no node of another example', () => {
		for (const { node, credentials } of baasCredentials('mcp-server.json')) {
			const expected = Object.fromEntries(
				Object.keys(credentials).map((type) => [type, type === 'baasApi' ? READ_ONLY_API_CREDENTIAL : READ_ONLY_DASHBOARD_CREDENTIAL]),
			);
			expect({ node, credentials }).toEqual({ node, credentials: expected });
		}
		const elsewhere = exampleFiles()
			.filter((file) => file !== 'mcp-server.json')
			.flatMap((file) => baasCredentials(file).map(({ node, credentials }) => ({ file, node, ids: Object.values(credentials ?? {}).map((c) => c.id) })));
		expect(elsewhere.filter(({ ids }) => ids.some((id) => READ_ONLY_IDS.includes(id)))).toEqual([]);
	});
});
