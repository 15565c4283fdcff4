import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../../sandbox';
import { startSandbox } from '../../../sandbox';
import { createApiKey, ownerSession } from '../../../scripts/n8n/api';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
import type { DataTableClient } from '../../../scripts/n8n/dataTables';
import { dataTables } from '../../../scripts/n8n/dataTables';
import { ACTIVE_IN_DEV } from '../../../scripts/n8n/devExamples';
import type { ExampleWorkflow } from '../../../scripts/n8n/examples';
import { activateWorkflow, importWorkflows, pointExample, readExample } from '../../../scripts/n8n/examples';
import { ensureN8n, installCommunityPackage, packPackage } from '../../../scripts/n8n/install';
import type { RunningN8n } from '../../../scripts/n8n/instance';
import { n8nCli, startN8n } from '../../../scripts/n8n/instance';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { CACHE_DIR } from '../../../scripts/n8n/paths';
import type { PlannedPayout } from '../../../scripts/n8n/payoutRows';
import { asRow, plannedPayouts } from '../../../scripts/n8n/payoutRows';
import type { DayPlanResult } from '../../../sandbox/state/dayPlan';
import { applyStandardDayPlan } from '../../../sandbox/state/dayPlan';
import { EXPECTED_PAYMENTS, expectedPaymentRows } from '../../../scripts/n8n/expectedPayments';
import { waitFor } from '../../support/waitFor';
import { teardown } from './teardown';
import { replaceNode, webhookTrigger } from './workflows';

export interface ExamplesStack {
	n8n: RunningN8n;
	bank: SandboxHandle;
	cookie: string;
	apiKey: string;
	tables: DataTableClient;
	tableIds: Record<string, string>;
	/** The rows put into "BaaS payouts", with what each should come to. */
	tablePayouts: PlannedPayout[];
	/** The bank's standard day plan on yesterday: what each row of "BaaS expected payments" and each collection comes to. */
	dayPlan: DayPlanResult;
	/** Paths of the webhooks that stand in for the manual and schedule triggers. */
	paths: { payoutsFromTable: string; dailyReport: string; dailyClose: string; settlementCheck: string };
	stop(): Promise<void>;
}

const log = (line: string) => process.stdout.write(`[e2e examples] ${line}\n`);

/** The examples as shipped, pointed at this run; a manual or schedule trigger becomes a webhook the test can call. */
function examplesFor(bankUrl: string, tableIds: Record<string, string>, line: N8nLine) {
	const pointed = (file: string) => pointExample(readExample(file), bankUrl, tableIds);
	const payoutsFromTable = `e2e-payouts-from-table-${line.nodeMajor}`;
	const dailyReport = `e2e-daily-report-${line.nodeMajor}`;
	const table = pointed('payouts-from-table.json');
	replaceNode(table as never, 'Start', webhookTrigger(payoutsFromTable, 'c0ffee05-0000-4000-8000-000000000001'));
	const report = pointed('daily-report.json');
	replaceNode(report as never, 'Every Morning', webhookTrigger(dailyReport, 'c0ffee05-0000-4000-8000-000000000002'));
	const dailyClose = `e2e-daily-close-${line.nodeMajor}`;
	const close = pointed('daily-close.json');
	replaceNode(close as never, 'Every Morning', webhookTrigger(dailyClose, 'c0ffee05-0000-4000-8000-000000000003'));
	const settlementCheck = `e2e-settlement-check-${line.nodeMajor}`;
	const check = pointed('settlement-check.json');
	replaceNode(check as never, 'Every Morning', webhookTrigger(settlementCheck, 'c0ffee05-0000-4000-8000-000000000004'));
	const workflows: ExampleWorkflow[] = [
		table,
		report,
		close,
		check,
		...['collection-alert.json', 'payouts-from-file.json', 'statement-download.json', 'first-look.json', 'webhook-with-polling-safety-net.json'].map(pointed),
	];
	// Active as `npm run dev` leaves them (the AI examples have their own suite, ai-n8n-2), plus the two whose trigger
	// became a webhook here.
	const imported = new Set(workflows.map((workflow) => workflow.id));
	const active = [...new Set([...ACTIVE_IN_DEV.filter((id) => imported.has(id)), table.id, report.id, close.id, check.id])];
	const paths = { payoutsFromTable, dailyReport, dailyClose, settlementCheck };
	return { workflows, active, paths: Object.fromEntries(Object.entries(paths).map(([key, name]) => [key, `webhook/${name}`])) as ExamplesStack['paths'] };
}

/**
 * One n8n of the line for every no-account example, as `npm run dev` sets it up: the data tables made through
 * n8n's REST API and "BaaS payouts" filled from the sandbox's accounts, the examples imported pointed at those
 * tables and this bank, those `npm run dev` publishes active (and the two started through a webhook here).
 */
export async function startExamplesStack(line: N8nLine, port: number): Promise<ExamplesStack> {
	const { started, stop } = teardown(log);
	try {
		const install = await ensureN8n(line, log);
		const tarball = await packPackage(log);
		const userFolder = path.join(CACHE_DIR, 'e2e', `examples-n8n-${line.version}`);
		rmSync(userFolder, { recursive: true, force: true });
		mkdirSync(userFolder, { recursive: true });
		await installCommunityPackage(userFolder, tarball, install.runtime, log);
		const bank = await startSandbox({ port: 0, interSettleDelayMs: 300 });
		started.push(() => bank.close());
		const config = { install, userFolder, port, encryptionKey: `e2e-examples-${line.version}`, portHint: 'BAAS_E2E_PORT_BASE=<another base>' };
		const credentialsFile = path.join(userFolder, 'credentials.json');
		writeFileSync(credentialsFile, JSON.stringify(sandboxCredentials(bank), null, 2));
		await n8nCli(config, ['import:credentials', `--input=${credentialsFile}`]);
		const n8n = await startN8n(config, log);
		started.push(() => n8n.stop());
		const cookie = await ownerSession(n8n.url);
		const apiKey = await createApiKey(n8n.url, cookie);

		const tables = dataTables(n8n.url, cookie);
		const { ids: tableIds } = await tables.ensure();
		const tablePayouts = plannedPayouts(bank.seed, `TBL${line.nodeMajor}`);
		await tables.insert(tableIds['BaaS payouts'], tablePayouts.map(asRow));
		// Yesterday as npm run dev plans it: the bank's collections and settlements, and the rows due that day.
		const dayPlan = applyStandardDayPlan(bank.bank);
		await tables.insert(tableIds[EXPECTED_PAYMENTS], expectedPaymentRows(dayPlan));
		const { workflows, active, paths } = examplesFor(bank.url, tableIds, line);
		await importWorkflows(config, workflows);
		for (const id of active) await activateWorkflow(n8n.url, cookie, id);
		await waitFor('the collection alert to register its URL with the bank', () => bank.bank.webhooks.some((w) => w.url.startsWith(n8n.url)), {
			timeoutMs: 60_000,
			intervalMs: 250,
		});
		log(`imported ${workflows.length} no-account examples, activated ${active.join(', ')}`);
		return { n8n, bank, cookie, apiKey, tables, tableIds, tablePayouts, dayPlan, paths, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
