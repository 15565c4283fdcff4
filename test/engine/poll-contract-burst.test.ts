/**
 * Issue 26, case 6: what a burst costs afterwards. After 3,000 collections in one minute, the quiet polls that
 * follow should not re-read the burst each time; a record the bank writes late inside the burst's window must
 * still be found; and behind a bank quota of list requests, a new collection must not wait for the burst to age.
 */
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { LIST_SHAPES } from './harness/listShapes';
import { contractTrigger, type PollDriver } from './harness/pollDriver';
import { findingsOf, NOTHING_WRONG } from './harness/pollOracle';
import { fakeClock } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
	fx.bank.configure({ listQuotaPerMinute: null });
	fx.bank.reset();
});

const MINUTE = 60_000;
/** Collections and transfer outcomes: the trigger reads two lists. */
const STREAMS = 2;

/** `count` collections spread over the minute after `startMs`; returns that minute's bounds. */
function burst(count: number, startMs: number): { from: number; to: number } {
	for (let i = 0; i < count; i++) collect(fx.bank, VIRTUALS[i % VIRTUALS.length], startMs + 1 + Math.floor((i * (MINUTE - 2)) / count));
	return { from: startMs + 1, to: startMs + MINUTE - 1 };
}

/** Activation, a burst of `count` in the next minute, then polls (one a minute) until it is all emitted, at most `most`. */
async function afterBurst(shape: (typeof LIST_SHAPES)[number], count: number, most: number): Promise<{ driver: PollDriver; window: { from: number; to: number } }> {
	fakeClock.start();
	const driver = contractTrigger(fx, shape);
	expect((await driver.activate()).error).toBeUndefined();
	const window = burst(count, Date.now());
	await driver.pollThrough(most);
	return { driver, window };
}

describe.each(LIST_SHAPES)('Poll Trigger after a burst, %s list shape (issue 26, case 6)', (shape) => {
	it('3,000 collections in one minute: the 15 quiet one-minute polls after it average at most 2 list requests per stream', async () => {
		const { driver } = await afterBurst(shape, 3_000, 10);
		const drained = driver.polls.length;
		for (let poll = 0; poll < 15; poll++) {
			fakeClock.advance(MINUTE);
			await driver.poll();
		}
		const quiet = driver.polls.slice(drained);
		const perStream = quiet.reduce((sum, p) => sum + p.listRequests, 0) / quiet.length / STREAMS;
		const verdict = driver.report(`poll-contract case 6 quiet polls (${shape})`, {
			polls_to_deliver_the_burst: drained,
			quiet_list_requests: quiet.map((p) => p.listRequests).join('/'),
			average_list_requests_per_stream: perStream.toFixed(2),
		});
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
		expect(quiet.every((p) => p.emitted === 0)).toBe(true);
		expect(perStream).toBeLessThanOrEqual(2);
	});

	it('a record the bank writes 5 minutes late inside the burst\'s window is emitted once', async () => {
		const { driver, window } = await afterBurst(shape, 3_000, 10);
		const drained = driver.polls.length;
		let late = '';
		for (let poll = 0; poll < 15; poll++) {
			fakeClock.advance(MINUTE);
			if (poll === 4) late = collect(fx.bank, VIRTUALS[5], Math.floor((window.from + window.to) / 2));
			await driver.poll();
		}
		const verdict = driver.report(`poll-contract case 6 late record (${shape})`, {
			polls_to_deliver_the_burst: drained,
			late_emitted: driver.oracle.emitted().filter((key) => key === `COLLECTION_SUCCESS:${late}`).length,
		});
		expect(driver.oracle.has(`COLLECTION_SUCCESS:${late}`)).toBe(true);
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
	});

	// Required: within 2 polls. Once the burst is delivered, the new collection is on the first page the trigger
	// reads; a quiet poll needs at most 2 list requests per stream (the case above), well inside 10 a minute. The
	// second poll is slack for a poll whose quota minute the previous poll's requests still count against.
	it('behind a bank quota of 10 list requests a minute, a collection made after 2,500 others is emitted within 2 polls', async () => {
		fx.bank.configure({ listQuotaPerMinute: 10 });
		const { driver } = await afterBurst(shape, 2_500, 8);
		const drained = driver.polls.length;
		const burstDelivered = driver.oracle.outstanding().length === 0;
		const next = collect(fx.bank, VIRTUALS[5]);
		await driver.pollThrough(2);
		const verdict = driver.report(`poll-contract case 6 quota (${shape})`, {
			polls_to_deliver_the_burst: drained,
			burst_delivered: String(burstDelivered),
			polls_for_the_next_collection: driver.polls.length - drained,
			refused_list_requests: fx.bank.requests().filter((entry) => entry.status === 429).length,
		});
		expect(burstDelivered).toBe(true);
		expect(driver.oracle.has(`COLLECTION_SUCCESS:${next}`)).toBe(true);
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
	});
});
