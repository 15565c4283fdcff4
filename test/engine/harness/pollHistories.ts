/**
 * The bank and n8n of issue 33's reproductions (poll-histories-*.test.ts): a Poll Trigger driven by a PollDriver on
 * a bank with a list shape and page cap, the trigger asking pages of `pageSize` (POLL_LIMITS.pageSize, which the
 * fixture's afterEach puts back) within Requests per Poll `requestBudget`. The bank's clock is the stamp records
 * are made with: `bankNow(offsetMs)`.
 */
import type { ListShape } from '../../../sandbox';
import { POLL_LIMITS } from '../../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../../nodes/BaasPollTrigger/signInPause';
import type { BankFixture } from './bankFixture';
import { useBankFixture } from './bankFixture';
import { PollDriver } from './pollDriver';
import { ALL_EVENTS } from './pollOracle';
import { fakeClock, PollingWorkflow } from './pollWorkflow';

export const MINUTE = 60_000;

const DEFAULTS = { ...POLL_LIMITS };

/** The bank of a file of histories: empty at each test's start, uncapped, documented shape; limits as shipped. */
export function useHistoryBank(): BankFixture {
	return useBankFixture({ transactions: 0 }, (fx) => {
		fakeClock.stop();
		clearPause();
		Object.assign(POLL_LIMITS, DEFAULTS);
		fx.bank.reset();
		fx.bank.configure({ listShape: 'documented', pageCap: null });
	});
}

export interface HistorySetting {
	shape?: ListShape;
	/** Records the bank serves a page at most, whatever is asked (null: as many as asked). */
	pageCap?: number | null;
	/** Records the trigger asks a page for. */
	pageSize?: number;
	requestBudget?: number;
	events?: string[];
}

let seq = 0;

export function historyTrigger(fx: BankFixture, setting: HistorySetting = {}): PollDriver {
	fx.bank.configure({ listShape: setting.shape ?? 'documented', pageCap: setting.pageCap ?? null });
	if (setting.pageSize !== undefined) POLL_LIMITS.pageSize = setting.pageSize;
	const events = setting.events ?? ALL_EVENTS;
	const options = setting.requestBudget === undefined ? {} : { requestBudget: setting.requestBudget };
	const wf = new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events, options }, undefined, `wf-histories-${++seq}`);
	return new PollDriver(fx.bank, wf, events);
}

/** The bank's clock, `offsetMs` ahead of n8n's (behind when negative). */
export const bankNow = (offsetMs: number) => Date.now() + offsetMs;

/** How many times `key` (`EVENT:reference`) was emitted so far. */
export const timesEmitted = (driver: PollDriver, key: string) => driver.oracle.emitted().filter((k) => k === key).length;
