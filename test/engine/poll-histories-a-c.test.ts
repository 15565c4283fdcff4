/**
 * Issue 33, reproductions A–C: histories generated from the contract and docs/polling.md's promises only, on which
 * the trigger of 9e771d6 is wrong, in their smallest form. Each test asserts what docs/polling.md promises a user.
 */
import { collect, transfer, VIRTUALS } from './harness/bankActivity';
import { bankNow, historyTrigger, MINUTE, useHistoryBank } from './harness/pollHistories';
import { ALL_EVENTS, keysOf } from './harness/pollOracle';
import { fakeClock } from './harness/pollWorkflow';
import type { EventKind } from '../../nodes/common/events';
import { leastRequestsFor } from '../../nodes/BaasPollTrigger/settings';

const fx = useHistoryBank();

describe('Poll Trigger on histories nobody tuned it to (issue 33, A–C)', () => {
	// A. docs/polling.md: without Start From the first poll only notes where the bank stands; transfers listed before
	// the trigger started are not reported; a bank clock far ahead of n8n's "changes nothing".
	it("a bank clock ahead of n8n's does not turn transfers listed at activation into events", async () => {
		const emitted: Record<string, { activation: string[]; later: string[] }> = {};
		for (const aheadMin of [0, 10]) {
			fx.bank.reset();
			fakeClock.start();
			const ahead = aheadMin * MINUTE;
			// A transfer that failed 2 minutes before activation, on the bank's clock.
			const failed = transfer(fx.bank, 'failing', bankNow(ahead) - 2 * MINUTE);
			fx.bank.bank.finalizeTransfer(failed, bankNow(ahead) - MINUTE);
			const driver = historyTrigger(fx, { events: ['TRANSFER_FAILED'] });
			const activation = await driver.activate();
			expect(activation.error).toBeUndefined();
			for (let poll = 0; poll < 5; poll++) {
				fakeClock.advance(MINUTE);
				await driver.poll();
			}
			emitted[`bank clock ${aheadMin} min ahead`] = { activation: keysOf(activation.json), later: driver.oracle.emitted() };
			fakeClock.stop();
		}
		const nothing = { activation: [], later: [] };
		expect(emitted).toEqual({ 'bank clock 0 min ahead': nothing, 'bank clock 10 min ahead': nothing });
	});

	// B. docs/polling.md, Requests per Poll: the minimum "must let every selected event through", and a bank serving
	// fewer records a page than asked is read by the cap it shows. (At 9e771d6 the minimum was 4 for the three events;
	// it did not let them through, and the node now asks for more: leastRequestsFor.)
	it.each([
		[5, 3, 9],
		[50, 4, 27],
	])('at the minimum Requests per Poll, a bank serving fewer records a page than asked lets every transfer through (pages of %i asked, %i served, %i transfers)', async (pageSize, pageCap, count) => {
		fakeClock.start();
		const driver = historyTrigger(fx, { pageSize, pageCap, requestBudget: leastRequestsFor(ALL_EVENTS as EventKind[]) });
		expect((await driver.activate()).error).toBeUndefined();
		const startMs = Date.now();
		for (let i = 0; i < count; i++) transfer(fx.bank, 'intra', startMs + 1_000 * (i + 1));
		// The pace the minimum allows: a page of each of the three lists and one status look-up a poll, so one
		// transfer event a poll. Bound: twice that pace, plus 5 polls to learn the cap and place the first page.
		// With no cap the same histories take 11 and 33 polls (measured at 9e771d6).
		await driver.pollThrough(2 * count + 5);
		const verdict = driver.oracle.check();
		expect({ emitted: verdict.emitted, missing: verdict.missing.length }).toEqual({ emitted: count, missing: 0 });
	});

	// C. docs/polling.md: a record the bank stamps in the future "is emitted once and the records listed below it are
	// found the same way", whatever the bank's clock.
	it("records the bank lists below one stamped in its future are emitted within a few polls, with the bank's clock behind n8n's", async () => {
		fakeClock.start();
		const behind = -37 * MINUTE;
		const driver = historyTrigger(fx, { pageSize: 7, pageCap: 3 });
		expect((await driver.activate()).error).toBeUndefined();
		fakeClock.advance(MINUTE);
		const future = collect(fx.bank, VIRTUALS[0], bankNow(behind) + 60 * MINUTE);
		await driver.poll();
		expect(driver.oracle.emitted()).toEqual([`COLLECTION_SUCCESS:${future}`]);
		for (let minute = 0; minute < 14; minute++) {
			fakeClock.advance(MINUTE);
			await driver.poll();
		}
		const later = [0, 1, 2, 3].map((i) => collect(fx.bank, VIRTUALS[1 + i], bankNow(behind) - 4_000 + i * 1_000));
		// A few polls: the four fit in two of the bank's pages.
		await driver.pollThrough(5);
		expect(later.filter((reference) => !driver.oracle.has(`COLLECTION_SUCCESS:${reference}`))).toEqual([]);
	});
});
