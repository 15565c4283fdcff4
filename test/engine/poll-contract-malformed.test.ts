/**
 * Issue 26, case 5: a malformed entry (null, not an object, no reference, no or an unreadable created_at) that
 * ends page 3 of a backlog, in each list shape. Every valid event is emitted once, oldest first, and the static
 * data n8n saves does not grow poll after poll.
 */
import { MALFORMED_KINDS } from '../../sandbox/types';
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { LIST_SHAPES } from './harness/listShapes';
import { contractTrigger } from './harness/pollDriver';
import { findingsOf, NOTHING_WRONG } from './harness/pollOracle';
import { collectLogs, fakeClock } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
	fx.bank.reset();
});
collectLogs();

const BACKLOG = 340;
/** Static data may differ this much between the 10th and the last poll (a stream's bookkeeping), not more. */
const GROWTH_ALLOWED = 1_024;

describe.each(LIST_SHAPES)('Poll Trigger: a malformed entry in a backlog, %s list shape (issue 26, case 5)', (shape) => {
	it.each(MALFORMED_KINDS)('an entry served as %s that ends page 3: every valid event once; static data bounded over 20 polls', async (as) => {
		fakeClock.start();
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		const start = Date.now();
		const made = Array.from({ length: BACKLOG }, (_, i) => collect(fx.bank, VIRTUALS[i % VIRTUALS.length], start + 1 + i * 100));
		// Listed newest first, pages of the trigger's size (100): page 3 ends with the 300th from the top.
		const endOfPage3 = made[BACKLOG - 3 * POLL_LIMITS.pageSize];
		fx.bank.markMalformed(endOfPage3, as);
		for (let poll = 0; poll < 20; poll++) {
			fakeClock.advance(60_000);
			await driver.poll();
		}
		const sizes = driver.polls.map((p) => p.staticDataSize);
		const verdict = driver.report(`poll-contract case 5 ${as} (${shape})`, {
			static_data_at_poll_10: sizes[9],
			static_data_at_poll_20: sizes[19],
			largest_static_data: Math.max(...sizes),
		});
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
		expect(verdict.expected).toBe(BACKLOG - 1);
		expect(Math.max(...sizes.slice(10))).toBeLessThanOrEqual(sizes[9] + GROWTH_ALLOWED);
	});
});
