/**
 * The Poll Trigger's soak (issue 20): simulated hours under a fake clock, polls every minute by 5 triggers on
 * one credential, each poll in a new context (n8n restarted or the durable scheduler) and n8n's memory lost at
 * the end of a 3-hour outage; a bank clock drifting to +1 h then to -10 min; a bank quota of 60 requests a
 * minute shared by the 5 triggers; a 10,000-event backlog made during the outage; the sign-in refused for 20
 * minutes (a secret mistyped, then fixed in the credential); 5% of status look-ups failing. Every trigger must
 * emit every event once: none lost, none repeated, no lockout, every poll within its request budget. It runs
 * against the documented list shape (page numbers) and the cursor shape (ids), issue 26: 12 simulated hours
 * each at full size (24 in all, as one 24-hour day before), 3 each inside npm test.
 */
import type { Transfer } from '../../../sandbox/state/records';
import type { RequestLogEntry } from '../../../sandbox';
import { Prng } from '../../../sandbox/data/prng';
import { forgetHeldTokens } from '../../../nodes/common/transport/session';
import { POLL_LIMITS } from '../../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../../nodes/BaasPollTrigger/signInPause';
import { collect, settle, transfer, VIRTUALS } from '../harness/bankActivity';
import { useBankFixture } from '../harness/bankFixture';
import { LIST_SHAPES } from '../harness/listShapes';
import { collectLogs, eventsOf, fakeClock, PollingWorkflow } from '../harness/pollWorkflow';
import { reportFigures, sized } from './scale';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
});
collectLogs();

const MINUTE = 60_000;
/** The test now running: a soak that outlived its time-out stops at its next minute instead of moving the next one's clock. */
let current = 0;
const HOUR = 60 * MINUTE;
const EVENTS = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'];

/** The plan of a run (per list shape): full size in npm run test:reliability, a shorter day inside npm test. */
const PLAN = {
	hours: sized(3, 12),
	outage: { from: sized(30, 60) * MINUTE, to: sized(60, 240) * MINUTE, events: sized(1_500, 10_000) },
	refusedAt: sized(150, 480) * MINUTE,
	triggers: 5,
};

/** The bank's clock offset at time t since the start: up to +1 h, then down to -10 min, then back to 0. */
function bankOffset(t: number): number {
	const day = PLAN.hours * HOUR;
	const f = t / day;
	if (f < 1 / 3) return f * 3 * HOUR;
	if (f < 2 / 3) return HOUR - (f - 1 / 3) * 3 * (HOUR + 10 * MINUTE);
	return -10 * MINUTE + (f - 2 / 3) * 3 * 10 * MINUTE;
}

async function takeRequestLog(): Promise<RequestLogEntry[]> {
	const log = fx.bank.requests();
	await fetch(`${fx.bank.url}/__sandbox/requests/clear`, { method: 'POST' });
	return log;
}

describe.each(LIST_SHAPES)('Poll Trigger soak (%s list shape)', (shape) => {
	it(`${PLAN.hours} simulated hours: created = emitted, 0 lost, 0 repeated, 0 lockouts, every poll within its budget`, async () => {
		const run = ++current;
		fx.bank.reset();
		fx.bank.configure({ listShape: shape });
		const rng = new Prng(20);
		const good = { ...fx.credentials.stored('api-1')!, accessToken: '' };
		fx.credentials.add('soak', 'baasApi', good);
		fakeClock.start();
		const start = Date.now();
		const triggers = Array.from(
			{ length: PLAN.triggers },
			(_, i) => new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: EVENTS }, { baasApi: 'soak' }, `wf-soak-${shape}-${i}`, { restartEveryPoll: true }),
		);
		const expected = new Set<string>();
		const emitted = triggers.map(() => new Map<string, number>());
		const awaiting: Array<{ transfer: Transfer; atMs: number }> = [];
		const figures = { polls: 0, failed_polls: 0, most_requests_in_a_poll: 0, sign_in_refusals: 0, lockouts: 0, quota_refusals: 0, status_failures: 0 };
		let backlogPolls = 0;
		let backlogDone = false;
		const outageKeys: string[] = [];

		const make = (atMs: number, during: string[] | undefined) => {
			const bankAt = atMs + bankOffset(atMs - start);
			const roll = rng.next();
			let key: string;
			if (roll < 0.8) key = `COLLECTION_SUCCESS:${collect(fx.bank, rng.pick(VIRTUALS), bankAt)}`;
			else if (roll < 0.9) key = `TRANSFER_SUCCESS:${transfer(fx.bank, 'intra', bankAt).reference}`;
			else {
				const failing = roll > 0.97;
				const t = transfer(fx.bank, failing ? 'failing' : 'inter', bankAt);
				awaiting.push({ transfer: t, atMs: atMs + rng.int(1, 10) * MINUTE });
				key = `${failing ? 'TRANSFER_FAILED' : 'TRANSFER_SUCCESS'}:${t.reference}`;
			}
			expected.add(key);
			during?.push(key);
		};

		fx.bank.addFault({ rateLimit: { retryAfterSeconds: 60, perSecond: 60 } });
		fx.bank.addFault({ match: 'transaction_status', errorCode: '83', errorRate: 0.05 });
		for (const wf of triggers) await wf.poll();
		await takeRequestLog();

		for (let minute = 1; minute <= PLAN.hours * 60; minute++) {
			if (run !== current) throw new Error('timed out: a later test is running');
			fakeClock.advance(MINUTE);
			const t = Date.now() - start;
			const down = t > PLAN.outage.from && t <= PLAN.outage.to;
			if (t > PLAN.outage.from && t - MINUTE <= PLAN.outage.from) {
				// The outage: its whole backlog, spread over its hours.
				const span = PLAN.outage.to - PLAN.outage.from;
				for (let i = 0; i < PLAN.outage.events; i++) make(start + PLAN.outage.from + Math.floor((i * span) / PLAN.outage.events), outageKeys);
			}
			if (!down) for (let i = rng.int(0, 4); i > 0; i--) make(Date.now() - rng.int(0, 30_000), undefined);
			for (const entry of awaiting.filter((a) => a.atMs <= Date.now())) settle(fx.bank, entry.transfer);
			awaiting.splice(0, awaiting.length, ...awaiting.filter((a) => a.atMs > Date.now()));
			if (t === PLAN.refusedAt) fx.credentials.add('soak', 'baasApi', { ...good, clientSecret: 'mistyped' });
			if (t === PLAN.refusedAt + 20 * MINUTE) fx.credentials.add('soak', 'baasApi', good);
			if (down) continue;
			if (t - MINUTE <= PLAN.outage.to && t > PLAN.outage.to) forgetHeldTokens(); // n8n restarted: its memory is gone

			// n8n fires the triggers' polls in no fixed order: whoever comes first in a minute gets the quota first.
			for (let k = 0; k < triggers.length; k++) {
				const i = (k + minute) % triggers.length;
				const result = await triggers[i].poll();
				figures.polls++;
				if (result.error) figures.failed_polls++;
				for (const [event, reference] of eventsOf(result.json)) {
					const key = `${event}:${reference}`;
					emitted[i].set(key, (emitted[i].get(key) ?? 0) + 1);
				}
				const log = await takeRequestLog();
				const requests = log.filter((entry) => !entry.path.endsWith('/generate_token') && !entry.path.includes('__sandbox')).length;
				figures.most_requests_in_a_poll = Math.max(figures.most_requests_in_a_poll, requests);
				figures.lockouts += log.filter((entry) => entry.status === 423).length;
				figures.sign_in_refusals += log.filter((entry) => entry.path.endsWith('/generate_token') && entry.status === 401).length;
				figures.quota_refusals += log.filter((entry) => entry.status === 429).length;
				figures.status_failures += log.filter((entry) => entry.path.endsWith('/transaction_status') && entry.response_code === '83').length;
			}
			if (t > PLAN.outage.to && !backlogDone) {
				backlogPolls++;
				backlogDone = triggers.every((_, i) => outageKeys.every((key) => emitted[i].has(key)));
			}
		}
		// Drain: the last transfers settle, and polls collect the rest.
		for (const entry of awaiting) settle(fx.bank, entry.transfer);
		for (let minute = 0; minute < 30; minute++) {
			if (run !== current) throw new Error('timed out: a later test is running');
			fakeClock.advance(MINUTE);
			for (const [i, wf] of triggers.entries()) {
				for (const [event, reference] of eventsOf((await wf.poll()).json)) {
					const key = `${event}:${reference}`;
					emitted[i].set(key, (emitted[i].get(key) ?? 0) + 1);
				}
			}
			await takeRequestLog();
		}

		const lost = emitted.reduce((sum, seen) => sum + [...expected].filter((key) => !seen.has(key)).length, 0);
		const repeated = emitted.reduce((sum, seen) => sum + [...seen.values()].reduce((s, n) => s + n - 1, 0), 0);
		const unexpected = emitted.reduce((sum, seen) => sum + [...seen.keys()].filter((key) => !expected.has(key)).length, 0);
		reportFigures(`poll-soak (${shape})`, {
			simulated_hours: PLAN.hours,
			triggers: PLAN.triggers,
			created: expected.size,
			emitted_per_trigger: emitted.map((seen) => seen.size).join('/'),
			lost,
			repeated,
			unexpected,
			lockouts: figures.lockouts,
			sign_in_refusals: figures.sign_in_refusals,
			quota_refusals: figures.quota_refusals,
			status_failures: figures.status_failures,
			polls: figures.polls,
			failed_polls: figures.failed_polls,
			budget: POLL_LIMITS.requestBudget,
			most_requests_in_a_poll: figures.most_requests_in_a_poll,
			backlog_events: PLAN.outage.events,
			backlog_polls_per_trigger: backlogPolls,
		});
		expect({ lost, repeated, unexpected, lockouts: figures.lockouts }).toEqual({ lost: 0, repeated: 0, unexpected: 0, lockouts: 0 });
		expect(figures.most_requests_in_a_poll).toBeLessThanOrEqual(POLL_LIMITS.requestBudget);
		expect(figures.sign_in_refusals).toBeGreaterThan(0);
		expect(figures.status_failures).toBeGreaterThan(0);
		expect(backlogDone).toBe(true);
	}, sized(300_000, 900_000));
});
