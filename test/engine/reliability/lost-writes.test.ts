/**
 * Every write other than a transfer, with its answer lost after the bank acted (and, for contrast, before it
 * saw the request): no write is made twice, and no message invites running it again without saying how to
 * check first. Transfers have their own suite (payouts-under-faults).
 */
import type { IDataObject } from 'n8n-workflow';

import { API, DASHBOARD, useBankFixture } from '../harness/bankFixture';
import { rl } from '../harness/nodeParameters';
import { runNode } from '../harness/runNode';
import { reportFigures, sized } from './scale';

const fx = useBankFixture();

const ROUNDS = sized(1, 25);

interface WriteCase {
	name: string;
	path: string;
	/** Sets up round `round` and returns the node parameters and credentials to run. */
	prepare(round: number, mode: string): Promise<{ parameters: IDataObject; credentials: Record<string, string> }>;
	/** How many records the bank holds for this round's write (more than 1 is a duplicate); undefined for state changes. */
	copies?(round: number, mode: string): number;
}

const businessId = () => fx.bank.bank.main.id;
const roleIdOf = (name: string) => [...fx.bank.bank.roles.values()].find((r) => r.name === name && r.businessId === businessId())!.id;
const tag = (round: number, mode: string) => `${mode}${round}`;
// Picker values as expressions: n8n checks a fixed one with a 250 ms regex budget that a loaded CI machine can exceed.

let toggled: string;

const WRITES: WriteCase[] = [
	{
		name: 'account.create',
		path: 'create_customer_account',
		prepare: async (round, mode) => ({
			parameters: { authentication: 'apiClient', resource: 'account', operation: 'create', accountName: `Lost Answer ${tag(round, mode)}`, email: `lost.${tag(round, mode)}@example.com`, phone: '+2348031234567', bvn: '22212345678' },
			credentials: API,
		}),
		copies: (round, mode) => [...fx.bank.bank.accounts.values()].filter((a) => a.accountName === `Lost Answer ${tag(round, mode)}`).length,
	},
	{
		name: 'account.updateStatus',
		path: 'update_account_status',
		prepare: async (round) => ({
			parameters: { authentication: 'dashboardUser', resource: 'account', operation: 'updateStatus', accountNumber: rl(`={{ "${toggled}" }}`, 'id'), status: round % 2 === 0 ? 'inactive' : 'active' },
			credentials: DASHBOARD,
		}),
	},
	{
		name: 'member.invite',
		path: 'add_member',
		prepare: async (round, mode) => ({
			parameters: { authentication: 'dashboardUser', resource: 'member', operation: 'invite', email: `invitee.${tag(round, mode)}@example.com`, firstName: 'Lost', lastName: 'Answer', roleId: roleIdOf('REVIEWER') },
			credentials: DASHBOARD,
		}),
		copies: (round, mode) => [...fx.bank.bank.members.values()].filter((m) => m.email === `invitee.${tag(round, mode)}@example.com`).length,
	},
	{
		name: 'role.create',
		path: 'create_role',
		prepare: async (round, mode) => ({
			parameters: { authentication: 'dashboardUser', resource: 'role', operation: 'create', name: `Lost Role ${tag(round, mode)}`, permissionCodes: 'account.view' },
			credentials: DASHBOARD,
		}),
		copies: (round, mode) => [...fx.bank.bank.roles.values()].filter((r) => r.name === `Lost Role ${tag(round, mode)}`).length,
	},
	{
		name: 'role.delete',
		path: 'delete_role',
		prepare: async (round, mode) => {
			const created = await runNode(fx.credentials, {
				parameters: { authentication: 'dashboardUser', resource: 'role', operation: 'create', name: `Doomed ${tag(round, mode)}`, permissionCodes: 'account.view' },
				credentials: DASHBOARD,
			});
			return { parameters: { authentication: 'dashboardUser', resource: 'role', operation: 'delete', roleId: String(created.json[0].id) }, credentials: DASHBOARD };
		},
	},
	{
		name: 'webhook.create',
		path: 'create_webhook',
		prepare: async (round, mode) => ({
			parameters: { authentication: 'apiClient', resource: 'webhook', operation: 'create', url: `https://hooks.example.com/${tag(round, mode)}`, events: ['COLLECTION_SUCCESS'] },
			credentials: API,
		}),
		copies: (round, mode) => fx.bank.bank.webhooks.filter((w) => w.url === `https://hooks.example.com/${tag(round, mode)}`).length,
	},
];

/** Words that send a person to run it again without a check first (n8n's own text for a dropped connection among them). */
function invitesBlindRetry(text: string): boolean {
	if (/retry the request immediately/i.test(text)) return true;
	return /\b(retry|try again|run (it|this|the workflow|this item) again)\b/i.test(text) && !/→|dashboard/i.test(text);
}

describe('every write with its answer lost', () => {
	beforeAll(() => {
		toggled = [...fx.bank.bank.accounts.values()].find((a) => a.businessId === businessId() && a.accountType === 'virtual' && a.status === 'active')!.accountNumber;
	});

	test.each(['after', 'before'] as const)('dropped %s the bank acts: no duplicate, no blind retry, every unknown says how to check', async (drop) => {
		const figures = { writes: 0, done: 0, unknown: 0, refused: 0, duplicates: 0, blind_retry_messages: 0, unknown_without_check: 0 };
		const byWrite: Record<string, string[]> = {};
		for (let round = 0; round < ROUNDS; round++) {
			for (const write of WRITES) {
				const { parameters, credentials } = await write.prepare(round, drop);
				fx.bank.addFault({ match: write.path, drop, times: 1 });
				const run = await runNode(fx.credentials, { parameters, credentials, continueOnFail: true });
				fx.bank.clearFaults();
				figures.writes++;
				const item = run.json[0] ?? {};
				const outcome = item.error === undefined ? 'done' : String(item.outcome);
				(byWrite[write.name] ??= []).push(outcome);
				if (outcome === 'done') figures.done++;
				else if (outcome === 'unknown') figures.unknown++;
				else figures.refused++;
				const text = `${String(item.error ?? '')} ${String(item.description ?? '')}`;
				if (invitesBlindRetry(text)) figures.blind_retry_messages++;
				if (outcome === 'unknown' && !/→|dashboard/.test(String(item.description))) figures.unknown_without_check++;
				if ((write.copies?.(round, drop) ?? 0) > 1) figures.duplicates++;
			}
		}
		reportFigures(`lost-writes drop=${drop}`, figures);
		expect(figures).toMatchObject({ duplicates: 0, blind_retry_messages: 0, unknown_without_check: 0, refused: 0 });
		const all = (name: string, outcome: string) => expect(new Set(byWrite[name])).toEqual(new Set([outcome]));
		// A lookup finds what the lost request did, or one safe re-send completes it; only a new account needs a person to check.
		all('account.create', 'unknown');
		all('account.updateStatus', 'done');
		all('member.invite', 'done');
		all('role.delete', 'done');
		all('webhook.create', 'done');
		// The bank refuses the re-send of a role it made (26) and no operation lists roles: unknown, with where to look.
		all('role.create', drop === 'after' ? 'unknown' : 'done');
	}, sized(60_000, 600_000));
});
