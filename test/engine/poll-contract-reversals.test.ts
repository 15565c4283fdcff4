/**
 * Issue 26, case 8: a transfer emitted as successful and later reversed is reported failed, once, even when more
 * than a page (100) of newer failed transfers lie in the 24-hour look-back.
 */
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { reverse, settle, transfer } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { LIST_SHAPES } from './harness/listShapes';
import { contractTrigger } from './harness/pollDriver';
import { findingsOf, NOTHING_WRONG } from './harness/pollOracle';
import { fakeClock } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
	fx.bank.reset();
});

const NEWER_FAILURES = 120;

describe.each(LIST_SHAPES)('Poll Trigger: reversals, %s list shape (issue 26, case 8)', (shape) => {
	it(`a transfer emitted as successful, then reversed behind ${NEWER_FAILURES} newer failed transfers: Transfer Failed once`, async () => {
		fakeClock.start();
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		const paid = transfer(fx.bank, 'intra');
		await driver.pollThrough(3);
		const emittedSuccess = driver.oracle.has(`TRANSFER_SUCCESS:${paid.reference}`);
		for (let i = 0; i < NEWER_FAILURES; i++) settle(fx.bank, transfer(fx.bank, 'failing', Date.now() + 1 + i));
		// Each outcome carries its Transfer status record: one status request per transfer, 20 requests a poll.
		await driver.pollThrough(10);
		reverse(fx.bank, paid);
		await driver.pollThrough(3);
		const verdict = driver.report(`poll-contract case 8 (${shape})`, {
			success_emitted: String(emittedSuccess),
			reversal_emitted: driver.oracle.emitted().filter((key) => key === `TRANSFER_FAILED:${paid.reference}`).length,
		});
		expect(emittedSuccess).toBe(true);
		expect(driver.oracle.has(`TRANSFER_FAILED:${paid.reference}`)).toBe(true);
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
		expect(verdict.expected).toBe(NEWER_FAILURES + 2);
	});
});
