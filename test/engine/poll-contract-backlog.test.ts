/**
 * Issue 26, cases 1–4: backlogs against a bank as its contract is written (the documented list shape: no `id`,
 * so page numbers) and against one whose items carry ids (the cursor shape). Default options unless said: all
 * three events, Requests per Poll 20, one poll a minute. Judged by the oracle (harness/pollOracle.ts): every
 * event once, oldest first.
 */
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { LIST_SHAPES } from './harness/listShapes';
import { contractTrigger } from './harness/pollDriver';
import { findingsOf, NOTHING_WRONG } from './harness/pollOracle';
import { fakeClock } from './harness/pollWorkflow';

const DEFAULTS = { ...POLL_LIMITS };
const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
	Object.assign(POLL_LIMITS, DEFAULTS);
	fx.bank.reset();
});

const MINUTE = 60_000;
const account = (i: number) => VIRTUALS[i % VIRTUALS.length];

describe.each(LIST_SHAPES)('Poll Trigger backlogs, %s list shape (issue 26)', (shape) => {
	it('case 1: n8n down for an hour, 10,000 collections meanwhile: each emitted once, oldest first, within 12 polls; one made while the backlog is read too', async () => {
		fakeClock.start();
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		const downAt = Date.now();
		for (let i = 0; i < 10_000; i++) collect(fx.bank, account(i), downAt + (i + 1) * 360);
		fakeClock.advance(60 * MINUTE - MINUTE);
		await driver.pollThrough(12, (poll) => {
			if (poll === 2) collect(fx.bank, VIRTUALS[5]);
		}, 3);
		const verdict = driver.report(`poll-contract case 1 (${shape})`);
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
		expect(verdict.expected).toBe(10_001);
		expect(driver.polls.length).toBeLessThanOrEqual(12);
	});

	it.each([
		['10,000 collections made within 4 minutes', 10_000, 1],
		['6,000 collections made within 4 minutes, 7 per instant', 6_000, 7],
	])('case 2: %s, n8n polling every minute: each emitted once, oldest first, within 12 polls', async (_name, total, perInstant) => {
		fakeClock.start();
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		// A quarter of them each minute, spread over the minute, `perInstant` sharing each timestamp.
		const perMinute = total / 4;
		const instants = Math.ceil(perMinute / perInstant);
		const arrive = (minute: number) => {
			const start = Date.now() - MINUTE;
			for (let i = 0; i < perMinute; i++) collect(fx.bank, account(minute * perMinute + i), start + 1 + Math.floor(Math.floor(i / perInstant) * ((MINUTE - 2) / instants)));
		};
		await driver.pollThrough(12, (poll) => {
			if (poll < 4) arrive(poll);
			if (poll === 6) collect(fx.bank, VIRTUALS[5]);
		}, 7);
		const verdict = driver.report(`poll-contract case 2 ${total}/${perInstant} (${shape})`);
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
		expect(verdict.expected).toBe(total + 1);
	});

	it('case 3: 40 records in one instant, a new one landing at the head after each page is served, pages of 7: all 55 emitted once', async () => {
		fakeClock.start();
		POLL_LIMITS.pageSize = 7;
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		const instant = Date.now() + 1_000;
		for (let i = 0; i < 40; i++) collect(fx.bank, account(i), instant);
		let landed = 0;
		const off = fx.bank.onListServed(() => {
			if (landed < 15) {
				landed++;
				collect(fx.bank, VIRTUALS[5]);
			}
		});
		try {
			// While records land, then three quiet polls at most.
			for (let poll = 0; poll < 12 && landed < 15; poll++) {
				fakeClock.advance(MINUTE);
				await driver.poll();
			}
			await driver.pollThrough(3);
		} finally {
			off();
		}
		const verdict = driver.report(`poll-contract case 3 (${shape})`, { landed });
		expect(landed).toBe(15);
		expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
		expect(verdict.expected).toBe(55);
	});

	it('case 4: a bank that caps pages at 50 while the trigger asks 100: 120 collections all emitted, once, oldest first', async () => {
		fakeClock.start();
		fx.bank.configure({ pageCap: 50 });
		try {
			const driver = contractTrigger(fx, shape);
			expect((await driver.activate()).error).toBeUndefined();
			const start = Date.now();
			for (let i = 0; i < 120; i++) collect(fx.bank, account(i), start + 1 + i * 400);
			await driver.pollThrough(4);
			const verdict = driver.report(`poll-contract case 4 (${shape})`);
			expect(findingsOf(verdict)).toEqual(NOTHING_WRONG);
			expect(verdict.expected).toBe(120);
		} finally {
			fx.bank.configure({ pageCap: null });
		}
	});
});
