/**
 * Issue 33, reproductions D–F: histories generated from the contract and docs/polling.md's promises only, on which
 * the trigger of 9e771d6 is wrong, in their smallest form. Each test asserts what docs/polling.md promises a user.
 */
import { leastRequestsFor } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import type { EventKind } from '../../nodes/common/events';
import { collect, reverse, settle, transfer, VIRTUALS } from './harness/bankActivity';
import { historyTrigger, MINUTE, timesEmitted, useHistoryBank } from './harness/pollHistories';
import { ALL_EVENTS } from './harness/pollOracle';
import { fakeClock } from './harness/pollWorkflow';

const fx = useHistoryBank();

describe('Poll Trigger on histories nobody tuned it to (issue 33, D–F)', () => {
	// D. docs/polling.md, reversals: a transfer the trigger emitted successful and the bank later reverses "is
	// emitted as Transfer Failed, once", within the 24-hour look-back.
	// Smallest history found: 6 transfers failing after it (one every 4 minutes), so the reversed transfer lies below
	// an even number of newer failed transfers in the bank's list of failures.
	it('a transfer emitted successful and reversed 25 minutes later is reported Transfer Failed once, behind a bank serving fewer records a page than asked', async () => {
		fakeClock.start();
		const driver = historyTrigger(fx, { shape: 'cursor', pageSize: 5, pageCap: 2, requestBudget: 12 });
		expect((await driver.activate()).error).toBeUndefined();
		const paid = transfer(fx.bank, 'intra', Date.now() + 1_000);
		await driver.pollThrough(3);
		expect(timesEmitted(driver, `TRANSFER_SUCCESS:${paid.reference}`)).toBe(1);
		for (let minute = 1; Date.now() < paid.createdAtMs + 25 * MINUTE; minute++) {
			fakeClock.advance(MINUTE);
			if (minute % 4 === 0) settle(fx.bank, transfer(fx.bank, 'failing', Date.now() - 10_000));
			await driver.poll();
		}
		reverse(fx.bank, paid);
		// A few polls: a page of the failures, a status look-up; 12 requests a poll.
		await driver.pollThrough(5);
		expect({ reversalReported: timesEmitted(driver, `TRANSFER_FAILED:${paid.reference}`), missing: driver.oracle.outstanding() }).toEqual({ reversalReported: 1, missing: [] });
	});

	// E. docs/polling.md: at a Requests per Poll too small for the check for records written late, such a record
	// comes "a poll late at worst: newer records are not held back". Smallest history found: the minimum Requests per
	// Poll (4 at 9e771d6; leastRequestsFor now), pages of 5, three collections a minute, and two collections written
	// 12 minutes late (inside the 15-minute overlap), at minutes 14 and 18.
	it('a record written late inside the overlap is emitted at most one poll after a newer record of its stream', async () => {
		fakeClock.start();
		const driver = historyTrigger(fx, { pageSize: 5, requestBudget: leastRequestsFor(ALL_EVENTS as EventKind[]) });
		expect((await driver.activate()).error).toBeUndefined();
		const late: Array<{ reference: string; createdMs: number; writtenBefore: number }> = [];
		const madeAt = new Map<string, number>();
		const emittedAt = new Map<string, number>();
		const poll = async () => {
			const before = driver.oracle.emitted().length;
			const figures = await driver.poll();
			for (const key of driver.oracle.emitted().slice(before)) emittedAt.set(key.slice(key.indexOf(':') + 1), figures.index);
		};
		for (let minute = 1; minute <= 20; minute++) {
			fakeClock.advance(MINUTE);
			for (let i = 0; i < 3; i++) {
				const createdMs = Date.now() - 30_000 + i * 1_000;
				madeAt.set(collect(fx.bank, VIRTUALS[i], createdMs), createdMs);
			}
			if (minute === 14 || minute === 18) {
				const createdMs = Date.now() - 12 * MINUTE;
				const reference = collect(fx.bank, VIRTUALS[5], createdMs);
				madeAt.set(reference, createdMs);
				late.push({ reference, createdMs, writtenBefore: minute });
			}
			await poll();
		}
		for (let drain = 0; drain < 30 && driver.oracle.outstanding().length > 0; drain++) {
			fakeClock.advance(MINUTE);
			await poll();
		}
		expect(driver.oracle.outstanding()).toEqual([]);
		// For each, the first poll (once it was written) that emitted a newer collection, and how many polls after it
		// the late one came.
		const lateness = late.map(({ reference, createdMs, writtenBefore }) => {
			const newer = [...emittedAt].filter(([other, at]) => (madeAt.get(other) as number) > createdMs && at >= writtenBefore).map(([, at]) => at);
			return { reference, pollsAfterANewerOne: (emittedAt.get(reference) as number) - Math.min(...newer) };
		});
		expect(lateness.filter((entry) => entry.pollsAfterANewerOne > 1)).toEqual([]);
	});

	// F. The history model had n8n save a poll node's static data only when a poll emits, so a restart after a
	// quiet activation would start afresh. n8n (1.123 and 2.41, in-memory scheduler) runs the activation poll inside
	// ActiveWorkflowManager.add(), which saves the workflow's static data right after it (saveStaticData, when the
	// data changed); only the scheduled polls that emit nothing are not saved. A restart then goes on from the place
	// the activation poll noted, and catches up on what was written since.
	it('a restart of n8n after activation and before the first event loses none of the events written in between', async () => {
		fakeClock.start();
		const driver = historyTrigger(fx, { events: ['COLLECTION_SUCCESS'] });
		const activation = await driver.activate();
		expect(activation.error).toBeUndefined();
		expect(activation.json).toEqual([]);
		// What n8n saved: the activation poll's static data (add() saves it), not the quiet polls' after it.
		const atActivation = JSON.parse(JSON.stringify(driver.wf.saved)) as typeof driver.wf.saved;
		expect(Object.keys(atActivation)).not.toEqual([]);
		fakeClock.advance(MINUTE);
		expect((await driver.poll()).emitted).toBe(0);
		const written = [0, 1, 2].map((i) => collect(fx.bank, VIRTUALS[i], Date.now() + 1_000 * (i + 1)));
		fakeClock.advance(2 * MINUTE);
		// n8n restarts: a fresh context (getActivationMode() 'init': n8n started with the workflow active).
		clearPause();
		driver.wf.saved = atActivation;
		driver.wf.restart('init');
		await driver.pollThrough(3);
		expect(written.filter((reference) => !driver.oracle.has(`COLLECTION_SUCCESS:${reference}`))).toEqual([]);
	});
});
