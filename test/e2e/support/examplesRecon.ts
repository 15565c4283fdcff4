/**
 * The reconciliation examples against the day the sandbox bank was planned to give (sandbox/README.md, "Day
 * plans"): every row of "BaaS expected payments", every collection and every settlement checked against what the
 * plan said it comes to. Run first in the examples' suite, before other tests add collections of today.
 */
import { formatAmount, parseAmount } from '../../../sandbox/data/money';
import { compareNewestFirst } from '../../../sandbox/state/sorted';
import type { Execution } from '../../../scripts/n8n/api';
import { nodeOutput } from '../../../scripts/n8n/api';
import { EXPECTED_PAYMENTS } from '../../../scripts/n8n/expectedPayments';
import { parseCsv } from './csv';
import type { ExamplesStack } from './examplesStack';
import { submitFormFields } from './formDownload';

interface Context {
	stack: () => ExamplesStack;
	run: (webhookPath: string, workflowId: string) => Promise<Execution>;
}

const ORDER = ['matched', 'underpaid', 'overpaid', 'paid in parts', 'paid twice', 'not paid yet', 'pending', 'failed', 'unexpected'];
const sum = (amounts: string[]) => formatAmount(amounts.reduce((total, amount) => total + parseAmount(amount), 0n));

/** The chat message the daily close should post for the plan, worked out from the plan alone. */
function closeSummary(plan: ExamplesStack['dayPlan']): string {
	const lines = ORDER.flatMap((outcome) => {
		if (outcome === 'unexpected') return plan.unexpected.length === 0 ? [] : [`unexpected: ${plan.unexpected.length}, received NGN ${sum(plan.unexpected.map((u) => u.amount))}`];
		const rows = plan.rows.filter((row) => row.outcome === outcome);
		if (rows.length === 0) return [];
		return [`${outcome}: ${rows.length}, expected NGN ${sum(rows.map((r) => r.amount))}, paid NGN ${sum(rows.map((r) => r.paid))}`];
	});
	return [`Daily close ${plan.date}: ${plan.rows.length} expected payments, ${plan.unexpected.length} unexpected`, ...lines].join('\n');
}

export function reconciliationTests({ stack, run }: Context) {
	const chat = async () => ((await (await fetch(`${stack().bank.url}/__sandbox/chat`)).json()) as { data: Array<{ text: string }> }).data;

	test('the daily close writes back to every row of "BaaS expected payments" the outcome the bank\'s day was planned to give, and sums each outcome in the chat', async () => {
		const { dayPlan: plan, tables, tableIds } = stack();
		const execution = await run(stack().paths.dailyClose, 'ExDailyClose0001');
		expect(execution.status).toBe('success');
		const rows = await tables.rows(tableIds[EXPECTED_PAYMENTS]);
		const triples = (list: Array<Record<string, unknown>>) => list.map((r) => [r.account_number, r.outcome, r.paid].map(String)).sort((a, b) => a[0].localeCompare(b[0]));
		expect(triples(rows)).toEqual(triples(plan.rows));
		for (const row of rows) expect({ account: row.account_number, note: Boolean(row.note) }).toEqual({ account: row.account_number, note: true });
		const unexpected = nodeOutput(execution, 'Match Expected Payments').filter((item) => item.reconciliation_outcome === 'unexpected');
		expect(unexpected.map((item) => item.reconciliation_references).sort()).toEqual(plan.unexpected.map((u) => u.reference).sort());
		const summary = (await chat()).find((m) => m.text.startsWith(`Daily close ${plan.date}`));
		expect(summary?.text).toBe(closeSummary(plan));
	});

	test('the settlement check names each collection of the day as the plan settled it, and posts the exceptions', async () => {
		const plan = stack().dayPlan;
		const execution = await run(stack().paths.settlementCheck, 'ExSettleCheck001');
		expect(execution.status).toBe('success');
		const items = nodeOutput(execution, 'Check Settlements').filter((item) => item.settlement_outcome !== 'totals');
		const outcomes = (list: Array<{ reference?: unknown; settlement_outcome?: unknown; outcome?: unknown }>) =>
			list.map((i) => [String(i.reference), String(i.settlement_outcome ?? i.outcome)]).sort();
		expect(outcomes(items)).toEqual(outcomes(plan.settlements));
		const [day] = nodeOutput(execution, 'Check Settlements').filter((item) => item.settlement_outcome === 'totals' && item.account_number === 'all');
		const collected = plan.settlements.filter((s) => s.collected !== null).map((s) => String(s.collected));
		expect(day).toMatchObject({ date: plan.date, collections: collected.length, collected_amount: sum(collected) });
		const message = (await chat()).find((m) => m.text.startsWith(`Settlement check ${plan.date}`));
		const exceptions = plan.settlements.filter((s) => s.outcome !== 'settled');
		expect(exceptions.map((s) => s.outcome).sort()).toEqual(['not settled yet', 'settled twice', 'settled with another amount', 'settlement without a collection']);
		expect(message?.text.split('\n')).toHaveLength(1 + exceptions.length);
		for (const s of exceptions) expect(message?.text).toContain(`${s.outcome}: ${s.reference} on ${s.account_number}`);
	});

	test('the statement form hands back every transaction of the day, in the bank\'s order', async () => {
		const { bank, n8n, dayPlan: plan } = stack();
		const result = await submitFormFields(`${n8n.url}/form/baas-statement`, ['', plan.date, plan.date]);
		expect(result.fileName).toBe(`statement-all-${plan.date}-${plan.date}.csv`);
		const [from, to] = [Date.parse(`${plan.date}T00:00:00Z`), Date.parse(`${plan.date}T00:00:00Z`) + 86_400_000];
		const held = bank.bank.transactions
			.filter((t) => t.businessId === bank.bank.main.id && t.createdAtMs >= from && t.createdAtMs < to)
			.sort(compareNewestFirst);
		const lines = parseCsv(result.text);
		expect(lines.map((l) => [l.reference_number, l.amount, l.status])).toEqual(held.map((t) => [t.reference, formatAmount(t.amount), t.status]));
	});
}
