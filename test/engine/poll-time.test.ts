/** Issue 20, case 3: records the bank stamps in the future, and a bank clock off by more than the overlap. */
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { collectLogs, fakeClock, PollingWorkflow, referencesOf } from './harness/pollWorkflow';

const DEFAULTS = { ...POLL_LIMITS };
const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
	Object.assign(POLL_LIMITS, DEFAULTS);
	fx.bank.configure({ listShape: 'documented' });
});

/** The cursor list shape (ids) for the backlog cases: the page-number path is judged by poll-contract-*.test.ts (issue 26). */
const inCursorShape = () => fx.bank.configure({ listShape: 'cursor' });
const logged = collectLogs();

const MINUTE = 60_000;
let seq = 0;
const trigger = (accountNumber: string, options: Record<string, unknown> = {}) =>
	new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ['COLLECTION_SUCCESS'], accountNumber, options }, undefined, `wf-time-${++seq}`);

/** `polls` polls, one every `everyMs` of n8n's clock; the references emitted, in order. */
async function pollEvery(wf: PollingWorkflow, everyMs: number, polls: number, between: (poll: number) => void = () => undefined): Promise<string[]> {
	const seen: string[] = [];
	for (let poll = 0; poll < polls; poll++) {
		fakeClock.advance(everyMs);
		between(poll);
		const result = await wf.poll();
		expect(result.error).toBeUndefined();
		seen.push(...referencesOf(result.json));
	}
	return seen;
}

describe('Poll Trigger: time', () => {
	it('a record stamped an hour ahead (local time labelled UTC) is emitted once and hides nothing after it', async () => {
		fakeClock.start();
		const wf = trigger(VIRTUALS[0]);
		await wf.poll();
		const ahead = collect(fx.bank, VIRTUALS[0], Date.now() + 60 * MINUTE);
		logged.length = 0;
		expect(referencesOf((await wf.poll()).json)).toEqual([ahead]);
		expect(logged.join('\n')).toMatch(/1 record\(s\) stamped up to 60 min ahead of n8n's clock/);

		const seen: string[] = [];
		const made: string[] = [];
		// Two hours of polls, one a minute, one collection every 10 minutes, past the future record's stamp.
		for (let minute = 1; minute <= 120; minute++) {
			fakeClock.advance(MINUTE);
			if (minute % 10 === 0) made.push(collect(fx.bank, VIRTUALS[0]));
			const result = await wf.poll();
			expect(result.error).toBeUndefined();
			seen.push(...referencesOf(result.json));
		}
		expect(seen).toEqual(made);
	});

	it('a bank server 6 minutes ahead loses none of the next minute\'s events', async () => {
		const wf = trigger(VIRTUALS[1]);
		await wf.poll();
		const early = collect(fx.bank, VIRTUALS[1], Date.now() + 6 * MINUTE);
		expect(referencesOf((await wf.poll()).json)).toEqual([early]);
		const next = [collect(fx.bank, VIRTUALS[1]), collect(fx.bank, VIRTUALS[1], Date.now() + 30_000)];
		expect(referencesOf((await wf.poll()).json)).toEqual(next);
		expect(referencesOf((await wf.poll()).json)).toEqual([]);
	});

	it('a bank clock 20 minutes behind n8n\'s: every event emitted, and a warning in n8n\'s log', async () => {
		fakeClock.start();
		const bankNow = () => Date.now() - 20 * MINUTE;
		const wf = trigger(VIRTUALS[2]);
		collect(fx.bank, VIRTUALS[2], bankNow());
		await wf.poll();
		const made: string[] = [];
		const seen: string[] = [];
		logged.length = 0;
		for (let i = 0; i < 5; i++) {
			fakeClock.advance(MINUTE);
			made.push(collect(fx.bank, VIRTUALS[2], bankNow()));
			seen.push(...referencesOf((await wf.poll()).json));
		}
		expect(seen).toEqual(made);
		expect(logged.join('\n')).toMatch(/the newest new record is stamped 20 min before n8n's clock/);
	});

	it('a record stamped an hour ahead, then a backlog larger than a poll reads: n8n\'s clock does not move the place past records not yet read', async () => {
		// Found by the full-size reliability run: while a backlog's pages were searched over several polls, the place
		// followed n8n's clock (the newest record handled being in the future), passed the backlog, and its oldest
		// records were never emitted.
		inCursorShape();
		fakeClock.start();
		POLL_LIMITS.pageSize = 10;
		const wf = trigger(VIRTUALS[3], { requestBudget: 4 });
		await wf.poll();
		const ahead = collect(fx.bank, VIRTUALS[3], Date.now() + 60 * MINUTE);
		expect(referencesOf((await wf.poll()).json)).toEqual([ahead]);
		const startMs = Date.now();
		const made = Array.from({ length: 200 }, (_, i) => collect(fx.bank, VIRTUALS[3], startMs + (i + 1) * 1_000));
		const seen = await pollEvery(wf, 5 * MINUTE, 30);
		expect(seen).toEqual(made);
	});

	it('records written late inside a backlog being read, and pages of another size, are all emitted once', async () => {
		inCursorShape();
		fakeClock.start();
		POLL_LIMITS.pageSize = 10;
		const wf = trigger(VIRTUALS[4], { requestBudget: 4 });
		await wf.poll();
		const startMs = Date.now() + 20 * MINUTE;
		const made = Array.from({ length: 150 }, (_, i) => collect(fx.bank, VIRTUALS[4], startMs + i * 1_000));
		const seen = await pollEvery(wf, 5 * MINUTE, 30, (poll) => {
			// While the backlog is read: a page size that changes, and records the bank writes late in its middle.
			POLL_LIMITS.pageSize = [10, 7, 13][poll % 3];
			if (poll < 6) made.push(collect(fx.bank, VIRTUALS[4], startMs + (20 + poll * 20) * 1_000 + 500));
		});
		expect(seen.filter((ref) => !made.includes(ref))).toEqual([]);
		expect([...seen].sort()).toEqual([...made].sort());
		expect(new Set(seen).size).toBe(seen.length);
	});
});
