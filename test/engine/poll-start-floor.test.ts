/**
 * Where a new trigger starts, when a record stamped in the bank's future tops the list (docs/polling.md: such a
 * record "is emitted once and the records listed below it are found the same way"). Two rules of start.ts:
 * - the floor rests on two records, never on the top one alone, even when the pending transfers read first leave
 *   few requests (the fuzz's smallest: Requests per Poll at the minimum, a bank serving one record a page);
 * - the trigger's start, which tells a reversal from history, is that floor, not the newest record read.
 */
import { collect, reverse, transfer, VIRTUALS } from './harness/bankActivity';
import { historyTrigger, MINUTE, timesEmitted, useHistoryBank } from './harness/pollHistories';
import { fakeClock } from './harness/pollWorkflow';
import { leastRequestsFor } from '../../nodes/BaasPollTrigger/settings';

const fx = useHistoryBank();

describe('Poll Trigger: a new place below a record stamped in the future', () => {
	it('rests on two records: a transfer made after activation below a future-stamped one is emitted, at the minimum Requests per Poll and a page of one', async () => {
		fakeClock.start();
		const events = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS'];
		collect(fx.bank, VIRTUALS[0], Date.now() - 20 * MINUTE);
		collect(fx.bank, VIRTUALS[0], Date.now() - 10 * MINUTE);
		transfer(fx.bank, 'intra', Date.now() - 30 * MINUTE);
		// Two transfers pending at activation: at a page of one, reading them takes the requests the list's top needs.
		transfer(fx.bank, 'inter', Date.now() - 25 * MINUTE);
		transfer(fx.bank, 'inter', Date.now() - 24 * MINUTE);
		transfer(fx.bank, 'intra', Date.now() + 30 * MINUTE);
		const driver = historyTrigger(fx, { events, pageCap: 1, requestBudget: leastRequestsFor(events as never) });
		expect((await driver.activate()).error).toBeUndefined();
		fakeClock.advance(MINUTE);
		const paid = transfer(fx.bank, 'intra', Date.now());
		// A few polls: the new place is read from the next poll on, then a page and a status look-up.
		await driver.pollThrough(6);
		expect({ emitted: timesEmitted(driver, `TRANSFER_SUCCESS:${paid.reference}`), missing: driver.oracle.outstanding() }).toEqual({ emitted: 1, missing: [] });
	});

	it('tells reversals by that floor: one of a transfer made after activation is reported, one of a transfer listed at activation is not', async () => {
		fakeClock.start();
		const events = ['TRANSFER_SUCCESS', 'TRANSFER_FAILED'];
		transfer(fx.bank, 'intra', Date.now() - 10 * MINUTE);
		const listed = transfer(fx.bank, 'intra', Date.now() + 30 * MINUTE);
		const driver = historyTrigger(fx, { events });
		expect((await driver.activate()).error).toBeUndefined();
		fakeClock.advance(MINUTE);
		const paid = transfer(fx.bank, 'intra', Date.now());
		await driver.pollThrough(3);
		expect(timesEmitted(driver, `TRANSFER_SUCCESS:${paid.reference}`)).toBe(1);
		fakeClock.advance(5 * MINUTE);
		reverse(fx.bank, paid);
		reverse(fx.bank, listed);
		for (let poll = 0; poll < 4; poll++) {
			fakeClock.advance(MINUTE);
			await driver.poll();
		}
		expect({ paid: timesEmitted(driver, `TRANSFER_FAILED:${paid.reference}`), listed: timesEmitted(driver, `TRANSFER_FAILED:${listed.reference}`) }).toEqual({ paid: 1, listed: 0 });
	});
});
