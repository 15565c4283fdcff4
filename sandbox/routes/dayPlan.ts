/**
 * Control routes of a real day's faults: POST /__sandbox/day-plan (expected payments in, the day's collections and
 * settlements made to give each a known outcome) and POST /__sandbox/collections/finish (a pending collection
 * ends, e.g. pending then failed).
 */
import { z } from 'zod';
import { parseAmount } from '../data/money';
import { standardDayPlan } from '../data/standardDayPlan';
import { isoDate, looseAmount, accountNumber, nonEmpty, parse } from '../http/requestValidation';
import type { Runtime } from '../runtime/runtime';
import { finishCollection } from '../state/collections';
import { applyDayPlan, lastHistoryDay, PLAN_OUTCOMES, SETTLEMENT_FAULTS, type DayPlan } from '../state/dayPlan';

const kobo = looseAmount.transform(parseAmount);
const placed = z.object({ account_number: accountNumber, amount: kobo }).strict();

const planSchema = z
	.object({
		date: isoDate.optional(),
		payments: z
			.array(
				z
					.object({
						account_number: accountNumber,
						customer_name: nonEmpty(255).optional(),
						amount: kobo,
						outcome: z.enum(PLAN_OUTCOMES),
						paid: kobo.optional(),
						paid_to: accountNumber.optional(),
						settlement: z.enum(SETTLEMENT_FAULTS).optional(),
					})
					.strict(),
			)
			.optional(),
		unexpected: z.array(placed).optional(),
		orphan_settlements: z.array(placed).optional(),
	})
	.strict();

const finishSchema = z.object({ reference: nonEmpty(100), status: z.enum(['success', 'failed']) }).strict();

export function dayPlanRoutes(rt: Runtime, route: string, body: unknown): { data: unknown; message: string } | undefined {
	if (route === 'POST /__sandbox/day-plan') {
		const b = parse(planSchema, body ?? {});
		const date = b.date ?? lastHistoryDay(rt.bank);
		// No payments: the standard mix (sandbox/data/standardDayPlan.ts).
		const plan: DayPlan = b.payments ? { ...b, date, payments: b.payments } : standardDayPlan(date);
		const result = applyDayPlan(rt.bank, plan, Date.now());
		return { data: result, message: `Day plan applied to ${date}: ${result.rows.length} expected payments` };
	}
	if (route === 'POST /__sandbox/collections/finish') {
		const b = parse(finishSchema, body);
		const transaction = finishCollection(rt.bank, b.reference, b.status, Date.now());
		if (transaction.status === 'success') rt.emitCollection(transaction);
		return { data: { reference: transaction.reference, status: transaction.status }, message: `Collection ${transaction.status}` };
	}
	return undefined;
}
