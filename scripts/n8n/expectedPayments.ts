/**
 * The "BaaS expected payments" the daily close reads: one invoice per customer of the sandbox's standard day plan
 * (sandbox/data/standardDayPlan.ts), due on the day the plan made the bank's collections and settlements of.
 * `npm run dev` plans yesterday on its first run and each later day it runs on; the bank lives in memory, so each
 * run plans again every day the table holds, and the rows stay true.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../sandbox';
import type { DayPlanResult } from '../../sandbox/state/dayPlan';
import { applyStandardDayPlan, lastHistoryDay } from '../../sandbox/state/dayPlan';

export const EXPECTED_PAYMENTS = 'BaaS expected payments';
/** Its columns: the key, the customer's own columns, then what the daily close writes back (empty until then). */
export const EXPECTED_PAYMENT_COLUMNS = ['account_number', 'customer_name', 'invoice_number', 'amount', 'due_date', 'outcome', 'paid', 'note'];

export type ExpectedPaymentRow = Record<(typeof EXPECTED_PAYMENT_COLUMNS)[number], string>;

export function expectedPaymentRows(plan: DayPlanResult): ExpectedPaymentRow[] {
	const day = plan.date.replace(/-/g, '');
	return plan.rows.map((row, i) => ({
		account_number: row.account_number,
		customer_name: String(row.customer_name),
		invoice_number: `INV-${day}-${String(i + 1).padStart(2, '0')}`,
		amount: row.amount,
		due_date: plan.date,
		outcome: '',
		paid: '',
		note: '',
	}));
}

const daysFile = (userFolder: string) => path.join(userFolder, 'expected-payments-days.json');

/**
 * Plans again each day this dev folder's table holds (those still in the bank's 120 days) and yesterday when it
 * is new; returns the new days' plans, whose rows are still to be added to the table, and `remember` to call once
 * they are.
 */
export function planDevDays(userFolder: string, bank: SandboxHandle): { added: DayPlanResult[]; remember(): void } {
	const file = daysFile(userFolder);
	const known = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : [];
	const first = new Date(bank.bank.config.historyEndMs - 120 * 86_400_000).toISOString().slice(0, 10);
	for (const day of known.filter((d) => d >= first)) applyStandardDayPlan(bank.bank, day);
	const yesterday = lastHistoryDay(bank.bank);
	if (known.includes(yesterday)) return { added: [], remember: () => undefined };
	return { added: [applyStandardDayPlan(bank.bank, yesterday)], remember: () => writeFileSync(file, JSON.stringify([...known, yesterday])) };
}
