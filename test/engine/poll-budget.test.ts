/**
 * Issue 20, case 4: a backlog larger than the bank's quota is delivered over successive polls, oldest first,
 * each poll within its request budget, the place saved after each emitted batch. The bank's per-minute quota is
 * the sandbox's per-second rate limit under a fake clock that stands still during a poll and moves a minute
 * between polls.
 */
import { PENDING_AT_START_UNREAD } from '../../nodes/BaasPollTrigger/emitter';
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, settle, transfer, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { BUSY_MACHINE_MS, collectLogs, eventsOf, fakeClock, PollingWorkflow } from './harness/pollWorkflow';

// The cursor list shape (ids): the trigger's page-number path is judged by poll-contract-*.test.ts (issue 26).
const fx = useBankFixture({ transactions: 0, listShape: 'cursor' }, () => {
	fakeClock.stop();
	clearPause();
});
const logged = collectLogs();

const MINUTE = 60_000;
let seq = 0;
const trigger = (parameters: Record<string, unknown>, pollBudgetMs?: number) =>
	new PollingWorkflow(fx.credentials, { authentication: 'apiClient', ...parameters }, undefined, `wf-budget-${++seq}`, { restartEveryPoll: true, pollBudgetMs });

/** Polls once a minute until `done` or `most` polls; returns what each poll emitted and the requests it made. */
async function pollUntil(wf: PollingWorkflow, done: (emitted: string[]) => boolean, most: number) {
	const emitted: string[] = [];
	const requests: number[] = [];
	for (let poll = 0; poll < most && !done(emitted); poll++) {
		fakeClock.advance(MINUTE);
		const before = fx.bank.requests().filter((entry) => !entry.path.endsWith('/generate_token')).length;
		const result = await wf.poll();
		expect(result.error).toBeUndefined();
		requests.push(fx.bank.requests().filter((entry) => !entry.path.endsWith('/generate_token')).length - before);
		emitted.push(...eventsOf(result.json).map(([event, reference]) => `${event}:${reference}`));
	}
	return { emitted, requests };
}

describe('Poll Trigger: bounded polls that keep their progress (case 4)', () => {
	it('2,500 collections made while n8n was down, a bank allowing 10 list requests a minute: all delivered, oldest first, once', async () => {
		fakeClock.start();
		const wf = trigger({ events: ['COLLECTION_SUCCESS'], accountNumber: VIRTUALS[0] });
		await wf.poll();
		const downSince = Date.now();
		fakeClock.advance(6 * 60 * MINUTE);
		const made = Array.from({ length: 2_500 }, (_, i) => `COLLECTION_SUCCESS:${collect(fx.bank, VIRTUALS[0], downSince + 1_000 + i * 8_000)}`);
		fx.bank.addFault({ match: 'fetch_transactions', rateLimit: { retryAfterSeconds: 60, perSecond: 10 } });
		logged.length = 0;
		const { emitted, requests } = await pollUntil(wf, (e) => e.length >= made.length, 40);
		expect(emitted).toEqual(made);
		expect(Math.max(...requests)).toBeLessThanOrEqual(POLL_LIMITS.requestBudget);
		expect(logged.join('\n')).toMatch(/stopped this poll early and keeps what it emitted/);
		expect(requests.length).toBeLessThan(15);
		fx.bank.clearFaults();
		expect((await pollUntil(wf, () => false, 2)).emitted).toEqual([]);
	});

	it('new events arriving while a backlog is delivered over several polls: every one emitted, once', async () => {
		fakeClock.start();
		const wf = trigger({ events: ['COLLECTION_SUCCESS'], accountNumber: VIRTUALS[2], options: { requestBudget: 3 } });
		await wf.poll();
		const since = Date.now();
		const made = Array.from({ length: 2_000 }, (_, i) => `COLLECTION_SUCCESS:${collect(fx.bank, VIRTUALS[2], since + 1 + i * 10)}`);
		const emitted: string[] = [];
		for (let poll = 0; poll < 40; poll++) {
			fakeClock.advance(MINUTE);
			for (let i = 0; i < 30; i++) made.push(`COLLECTION_SUCCESS:${collect(fx.bank, VIRTUALS[2], Date.now() - i)}`);
			emitted.push(...eventsOf((await wf.poll()).json).map(([event, reference]) => `${event}:${reference}`));
		}
		for (let poll = 0; poll < 20; poll++) {
			fakeClock.advance(MINUTE);
			emitted.push(...eventsOf((await wf.poll()).json).map(([event, reference]) => `${event}:${reference}`));
		}
		expect(new Set(emitted).size).toBe(emitted.length);
		expect([...emitted].sort()).toEqual([...made].sort());
	});

	it('a slow bank and n8n\'s poll time budget: no request starts after half of it, and the backlog still arrives whole', async () => {
		const wf = trigger({ events: ['COLLECTION_SUCCESS'], accountNumber: VIRTUALS[3] }, 1_000);
		await wf.poll();
		const since = Date.now();
		const made = Array.from({ length: 1_500 }, (_, i) => `COLLECTION_SUCCESS:${collect(fx.bank, VIRTUALS[3], since + 1 + i)}`);
		fx.bank.addFault({ match: 'fetch_transactions', latencyMs: 100 });
		const emitted: string[] = [];
		const lists: number[] = [];
		for (let poll = 0; poll < 30 && emitted.length < made.length; poll++) {
			const before = fx.count('/fetch_transactions');
			const started = Date.now();
			const result = await wf.poll();
			expect(result.error).toBeUndefined();
			// Within its 1 s budget; the wall time only with a margin no busy machine uses up (the request count is exact).
			expect(Date.now() - started).toBeLessThan(1_000 + BUSY_MACHINE_MS);
			lists.push(fx.count('/fetch_transactions') - before);
			emitted.push(...eventsOf(result.json).map(([event, reference]) => `${event}:${reference}`));
		}
		expect(emitted).toEqual(made);
		expect(Math.max(...lists)).toBeLessThanOrEqual(7);
	});

	it('3,000 new collections with no quota: each poll within its budget (was 31 list requests in one poll)', async () => {
		fakeClock.start();
		const wf = trigger({ events: ['COLLECTION_SUCCESS'], accountNumber: VIRTUALS[1], options: { requestBudget: 10 } });
		await wf.poll();
		const since = Date.now();
		const made = Array.from({ length: 3_000 }, (_, i) => `COLLECTION_SUCCESS:${collect(fx.bank, VIRTUALS[1], since + 1 + i * 10)}`);
		const { emitted, requests } = await pollUntil(wf, (e) => e.length >= made.length, 20);
		expect(emitted).toEqual(made);
		expect(Math.max(...requests)).toBeLessThanOrEqual(10);
	});

	it('120 transfers settled while n8n was down, 10 status reads a minute: every outcome once, status look-ups within the budget', async () => {
		fakeClock.start();
		const wf = trigger({ events: ['TRANSFER_SUCCESS', 'TRANSFER_FAILED'] });
		await wf.poll();
		fakeClock.advance(30 * MINUTE);
		const made = Array.from({ length: 120 }, (_, i) => `TRANSFER_SUCCESS:${transfer(fx.bank, 'intra', Date.now() - 20 * MINUTE + i * 1_000).reference}`);
		fx.bank.addFault({ match: 'transaction_status', rateLimit: { retryAfterSeconds: 60, perSecond: 10 } });
		const { emitted, requests } = await pollUntil(wf, (e) => e.length >= made.length, 40);
		expect(emitted).toEqual(made);
		expect(Math.max(...requests)).toBeLessThanOrEqual(POLL_LIMITS.requestBudget);
	});
	it.each([
		['at 4 Requests per Poll, the start warns once in n8n\'s log, naming what to check and the remedy, and what it says happens', 4, 1],
		['at the default, the start reads them all in one poll and says nothing', POLL_LIMITS.requestBudget, 0],
	])('transfers pending at the start, one record a page: %s', async (_, requestBudget, warnings) => {
		fakeClock.start();
		fx.bank.configure({ pageCap: 1 });
		try {
			const pending = Array.from({ length: 8 }, (_, i) => transfer(fx.bank, 'inter', Date.now() - 30 * MINUTE + i * 1_000));
			const before = logged.length;
			const wf = trigger({ events: ['TRANSFER_SUCCESS'], options: { requestBudget } });
			expect((await wf.poll()).error).toBeUndefined();
			const said = logged.slice(before).filter((line) => line.includes(PENDING_AT_START_UNREAD));
			expect(said).toHaveLength(warnings);
			for (const line of said) {
				expect(line).toMatch(/^warn: /);
				expect(line).toContain('Transfer → Get Status');
				expect(line).toContain(`Requests per Poll is ${requestBudget}`);
				expect(line).not.toContain(fx.bank.seed.clientSecret);
			}
			// All settle before the second poll. What the warning says: the first poll read one (three of its four requests
			// are the list's top's: START_RECORDS), the newest; the outcomes of the seven it had not read are not told from
			// history.
			for (const t of pending) settle(fx.bank, t);
			const watched = warnings === 0 ? pending : pending.slice(-1);
			const { emitted } = await pollUntil(wf, () => false, 4);
			expect(emitted).toEqual(watched.map((t) => `TRANSFER_SUCCESS:${t.reference}`));
		} finally {
			fx.bank.configure({ pageCap: null });
		}
	});
});
