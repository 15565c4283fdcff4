import type { IExecuteFunctions } from 'n8n-workflow';

import { invalidInput, validDateRange } from '../../validation';

export interface Period {
	start: string;
	end: string;
}

/** The Start Date and End Date of one item: both required, real days, start not after end. */
export function readPeriod(context: IExecuteFunctions, itemIndex: number): Period {
	const startDate = context.getNodeParameter('startDate', itemIndex, '') as unknown;
	const endDate = context.getNodeParameter('endDate', itemIndex, '') as unknown;
	if (!startDate) throw invalidInput(context, itemIndex, 'Start Date', 'is required: the first day of the period, written YYYY-MM-DD');
	if (!endDate) throw invalidInput(context, itemIndex, 'End Date', 'is required: the last day of the period, written YYYY-MM-DD');
	const range = validDateRange(context, itemIndex, startDate, endDate);
	return { start: range.start_date!, end: range.end_date! };
}

/** The day `days` after `day` (YYYY-MM-DD, UTC; negative goes back). */
export function shiftDay(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
