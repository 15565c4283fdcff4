/** `npm run dev`'s part of the examples: tables, seeded payouts, the examples pointed at this bank, what is active. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../sandbox';
import { readOnlySandboxCredentials } from './credentials';
import { dataTables } from './dataTables';
import type { DayPlanResult } from '../../sandbox/state/dayPlan';
import { EXPECTED_PAYMENTS, expectedPaymentRows } from './expectedPayments';
import { activateWorkflow, exampleFiles, importWorkflows, loadsOn, pointExample, readExample } from './examples';
import type { InstanceConfig } from './instance';
import { n8nCli } from './instance';
import { asRow, plannedPayouts } from './payoutRows';

/**
 * Published (active, on n8n 1.x) after import: they start on their own (a collection, a form submission, a chat
 * message, an MCP client) and need no account. The polling first look stays off: it is the safety net's poll alone,
 * for an n8n the bank cannot reach.
 */
export const ACTIVE_IN_DEV = ['ExFirstLookSbx01', 'ExCollAlertTable', 'ExPayoutsFromCsv', 'ExWebhookAndPoll', 'ExTreasuryAgent1', 'ExBaasMcpServer1', 'ExStatementForm1'];

/** Where the bank URL the examples were pointed at is kept (its port is a flag and may differ next time). */
const bankUrlFile = (userFolder: string) => path.join(userFolder, 'examples-bank-url.txt');

export async function setUpExamples(config: InstanceConfig, n8nUrl: string, cookie: string, bank: SandboxHandle): Promise<undefined> {
	const tables = dataTables(n8nUrl, cookie);
	const { ids, created } = await tables.ensure();
	if (created.includes('BaaS payouts')) await tables.insert(ids['BaaS payouts'], plannedPayouts(bank.seed, 'PAYOUT').map(asRow));
	// The MCP server example's tools carry these; imported with the examples, so a dev folder that predates them
	// keeps its own MCP example and credentials.
	const readOnlyFile = path.join(config.userFolder, 'read-only-credentials.json');
	writeFileSync(readOnlyFile, JSON.stringify(readOnlySandboxCredentials(bank)));
	await n8nCli(config, ['import:credentials', `--input=${readOnlyFile}`]);
	// An example this n8n line cannot load is left out, not imported broken.
	const examples = exampleFiles().map(readExample).filter((workflow) => loadsOn(workflow, config.install.line));
	await importWorkflows(config, examples.map((workflow) => pointExample(workflow, bank.url, ids)));
	for (const id of ACTIVE_IN_DEV.filter((active) => examples.some((workflow) => workflow.id === active))) await activateWorkflow(n8nUrl, cookie, id);
	writeFileSync(bankUrlFile(config.userFolder), bank.url);
	return undefined;
}

/** On a later run: a line to print when the examples post to another bank URL than this run's, or predate the tables. */
export function examplesBankNote(userFolder: string, bankUrl: string): string | undefined {
	const file = bankUrlFile(userFolder);
	if (!existsSync(file)) {
		return 'This dev folder predates the no-account examples: `npm run dev -- --reset` imports them (and forgets your dev workflows).';
	}
	const pointedAt = readFileSync(file, 'utf8').trim();
	if (pointedAt === bankUrl) return undefined;
	return `The examples post chat messages to ${pointedAt}/__sandbox/chat (this clone's bank when they were imported), not this run's ${bankUrl}: run with --bank-port ${new URL(pointedAt).port}, or --reset to import them again.`;
}

/** Adds the rows of the days the bank was newly planned for (scripts/n8n/expectedPayments.ts) to "BaaS expected payments". */
export async function addExpectedPayments(n8nUrl: string, cookie: string, plans: DayPlanResult[]): Promise<void> {
	if (plans.length === 0) return;
	const tables = dataTables(n8nUrl, cookie);
	const { ids } = await tables.ensure();
	for (const plan of plans) await tables.insert(ids[EXPECTED_PAYMENTS], expectedPaymentRows(plan));
}
