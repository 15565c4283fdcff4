/**
 * The filters of the lists a poll reads (a stream's records, its pending transfers, the failed transfers), and the
 * run that reads them. Every time here is the bank's: the date filter bounds a list's bottom only.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiVariant } from '../common/transport/routes';
import type { Budget } from './budget';
import type { Stream } from './events';
import type { ReadRun } from './reader';
import type { PollSettings } from './settings';
import { POLL_LIMITS } from './settings';

const DAY_MS = 86_400_000;

export interface StartRun extends ReadRun {
	settings: PollSettings;
	variant: ApiVariant;
	nowMs: number;
	budget: Budget;
}

/**
 * The list's date filter: from the day before the floor's UTC day, so a bank whose days are in another time zone
 * still lists the floor. It bounds the list's bottom only; the trigger reads from the top.
 */
export function sinceFilter(floorMs: number | null): IDataObject {
	return floorMs === null ? {} : { start_date: new Date(floorMs - DAY_MS).toISOString().slice(0, 10) };
}

export function listFilters(run: StartRun, stream: Stream, extra: IDataObject): IDataObject {
	return { ...stream.filters, ...extra, ...(run.settings.accountNumber ? { account_number: run.settings.accountNumber } : {}) };
}

/** The failed transfers since `sinceMs`, newest first: where reversals appear. */
export const failuresFilters = (run: StartRun, transfers: Stream, sinceMs: number) => listFilters(run, transfers, { status: 'failed', ...sinceFilter(sinceMs) });

/** The filters of the transfers pending at the start: the last day's. */
export const pendingFilters = (run: StartRun, stream: Stream) => listFilters(run, stream, { status: 'pending', ...sinceFilter(run.nowMs - POLL_LIMITS.lookBackMs) });
