/**
 * Issue 20, case 7: a transfer pending when the trigger is activated has its outcome emitted once when final; a
 * transfer emitted as successful and later reversed yields Transfer Failed once (the contract's "failed"
 * includes "a debit reversed"), within the look-back.
 */
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { reverse, settle, transfer } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { eventsOf, PollingWorkflow } from './harness/pollWorkflow';

const DELAYS = [...POLL_LIMITS.recheckDelaysMs];
const fx = useBankFixture({ transactions: 0 }, () => {
	POLL_LIMITS.recheckDelaysMs = DELAYS;
	clearPause();
});

let seq = 0;
const trigger = (events = ['TRANSFER_SUCCESS', 'TRANSFER_FAILED']) =>
	new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events }, undefined, `wf-outcomes-${++seq}`);

describe('Poll Trigger: transfer outcomes', () => {
	it('a transfer pending at activation: its outcome is emitted once it is final', async () => {
		POLL_LIMITS.recheckDelaysMs = [0];
		const before = transfer(fx.bank, 'inter');
		const failing = transfer(fx.bank, 'failing');
		const wf = trigger();
		expect((await wf.poll()).json).toEqual([]);
		settle(fx.bank, before);
		settle(fx.bank, failing);
		const settled = await wf.poll();
		expect(eventsOf(settled.json).sort()).toEqual(
			[
				['TRANSFER_SUCCESS', before.reference],
				['TRANSFER_FAILED', failing.reference],
			].sort(),
		);
		expect((await wf.poll()).json).toEqual([]);
	});

	it('a transfer emitted as successful, then reversed: Transfer Failed once', async () => {
		const wf = trigger();
		await wf.poll();
		const paid = transfer(fx.bank, 'intra');
		expect(eventsOf((await wf.poll()).json)).toEqual([['TRANSFER_SUCCESS', paid.reference]]);
		expect((await wf.poll()).json).toEqual([]);
		reverse(fx.bank, paid);
		const reversed = await wf.poll();
		expect(reversed.json).toEqual([expect.objectContaining({ event: 'TRANSFER_FAILED', data: expect.objectContaining({ reference_number: paid.reference, status: 'failed' }) })]);
		expect((await wf.poll()).json).toEqual([]);
		expect((await wf.poll()).json).toEqual([]);
	});

	it('with Start From, a transfer pending at activation and listed after Start From: its outcome once', async () => {
		POLL_LIMITS.recheckDelaysMs = [0];
		await new Promise((resolve) => setTimeout(resolve, 5)); // the earlier tests' transfers are before Start From
		const since = Date.now();
		const waiting = transfer(fx.bank, 'inter', since + 1);
		const wf = new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ['TRANSFER_SUCCESS'], options: { startFrom: new Date(since).toISOString() } }, undefined, `wf-outcomes-${++seq}`);
		expect((await wf.poll()).json).toEqual([]);
		settle(fx.bank, waiting);
		expect(eventsOf((await wf.poll()).json)).toEqual([['TRANSFER_SUCCESS', waiting.reference]]);
		expect((await wf.poll()).json).toEqual([]);
	});

	it('a transfer that failed before the trigger started is not reported', async () => {
		const old = transfer(fx.bank, 'intra');
		reverse(fx.bank, old);
		const wf = trigger();
		await wf.poll();
		expect((await wf.poll()).json).toEqual([]);
	});
});
