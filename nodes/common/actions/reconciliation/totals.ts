import type { IDataObject } from 'n8n-workflow';

import type { Collection, PaymentOutcome, RowResult } from './matching';
import { PAYMENT_OUTCOMES } from './matching';
import { koboToAmount } from '../../amounts';
import type { Period } from './period';

interface Sums {
	count: number;
	expected: bigint;
	paid: bigint;
}

/**
 * Match Expected Payments' totals item (option Add Totals): the count and sums of each outcome as decimal strings,
 * added in kobo, and the same as lines a chat message can carry, so that a daily close needs no Code node to sum.
 */
export function totalsFields(rows: Array<RowResult<IDataObject>>, unexpected: Array<Collection<IDataObject>>, period: Period): IDataObject {
	const sums = new Map<PaymentOutcome, Sums>();
	const add = (outcome: PaymentOutcome, expected: bigint, paid: bigint) => {
		const held = sums.get(outcome) ?? { count: 0, expected: 0n, paid: 0n };
		sums.set(outcome, { count: held.count + 1, expected: held.expected + expected, paid: held.paid + paid });
	};
	for (const row of rows) add(row.outcome, row.expected, row.paid);
	for (const collection of unexpected) add('unexpected', 0n, collection.kobo);
	const present = PAYMENT_OUTCOMES.filter((outcome) => sums.has(outcome));
	const lines = present.map((outcome) => {
		const { count, expected, paid } = sums.get(outcome)!;
		return outcome === 'unexpected'
			? `unexpected: ${count}, received NGN ${koboToAmount(paid)}`
			: `${outcome}: ${count}, expected NGN ${koboToAmount(expected)}, paid NGN ${koboToAmount(paid)}`;
	});
	return {
		reconciliation_outcome: 'totals',
		reconciliation_start_date: period.start,
		reconciliation_end_date: period.end,
		reconciliation_expected_rows: rows.length,
		reconciliation_unexpected: unexpected.length,
		reconciliation_totals: Object.fromEntries(
			present.map((outcome) => {
				const { count, expected, paid } = sums.get(outcome)!;
				return [outcome, { count, expected: koboToAmount(expected), paid: koboToAmount(paid) }];
			}),
		),
		reconciliation_summary: [`${rows.length} expected payments, ${unexpected.length} unexpected`, ...lines].join('\n'),
	};
}
