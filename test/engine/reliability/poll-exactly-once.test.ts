/**
 * The Poll Trigger under load (issue 12): collections and transfers made while the trigger polls, with random page
 * boundaries, bursts sharing one timestamp, records the bank writes late, transfers pending for several polls,
 * failing transfers, an n8n restart before every poll (static data reloaded from the saved copy) and faults on 20%
 * of polls. Every event must be emitted exactly once. A second test shows the requests per poll do not grow with
 * the number of transactions the day already holds. Both run against the documented list shape (page numbers)
 * and the cursor shape (ids), issue 26.
 */
import { Prng } from '../../../sandbox/data/prng';
import type { Transfer } from '../../../sandbox/state/records';
import { POLL_LIMITS } from '../../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../../nodes/BaasPollTrigger/signInPause';
import { collect, POLL_FAULTS, settle, transfer, VIRTUALS } from '../harness/bankActivity';
import { useBankFixture } from '../harness/bankFixture';
import { LIST_SHAPES } from '../harness/listShapes';
import { fakeClock, PollingWorkflow } from '../harness/pollWorkflow';
import { reportFigures, sized } from './scale';

const fx = useBankFixture({ transactions: 0 });
const DEFAULTS = { ...POLL_LIMITS, recheckDelaysMs: [...POLL_LIMITS.recheckDelaysMs] };

afterEach(() => {
	fakeClock.stop();
	Object.assign(POLL_LIMITS, DEFAULTS);
	clearPause();
});

const EVENTS = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'];

const keyOf = (item: Record<string, unknown>) => `${String(item.event)}:${String((item.data as { reference_number: string }).reference_number)}`;

/** Per list shape: at full size the two shapes together make the 1,000 collections and 300 transfers of one run before issue 26. */
const COLLECTIONS = sized(200, 500);
const TRANSFERS = sized(60, 150);

/** Polls in a row that emit nothing, with no transfer left to settle, before the drain ends. */
const QUIET_POLLS = 5;

describe.each(LIST_SHAPES)('Poll Trigger: every event exactly once (%s list shape)', (shape) => {
	it.each([
		['n8n\'s clock running with the bank\'s', false],
		['the bank\'s clock running ahead of n8n\'s (5 s per poll: about 22 minutes at full size)', true],
	])(`${COLLECTIONS} collections and ${TRANSFERS} transfers under random pages, bursts, late records, restarts and 20%% faulted polls, %s`, async (_clocks, bankAhead) => {
		fx.bank.reset();
		fx.bank.configure({ listShape: shape });
		const collections = COLLECTIONS;
		const transfers = TRANSFERS;
		const rng = new Prng(12);
		POLL_LIMITS.recheckDelaysMs = [0];
		// The bank's clock runs 5 s per poll (polls every few seconds); late records may lag it by up to 30 s.
		POLL_LIMITS.overlapMs = 45_000;
		// Either n8n's clock runs with the bank's, or n8n keeps its real clock while the bank's runs ahead by more than
		// the overlap: the place is then bounded by n8n's clock and every poll re-reads what is stamped after it.
		if (!bankAhead) fakeClock.start();
		const wf = new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: EVENTS });
		expect((await wf.poll()).error).toBeUndefined();
		const startedAt = Date.now();
		let bankNow = startedAt;
		let mostRequests = 0;

		const expected = new Map<string, number>();
		const awaiting: Array<{ transfer: Transfer; settleAfterPolls: number }> = [];
		const emitted = new Map<string, number>();
		const made = { collections: 0, transfers: 0 };
		let polls = 0;
		let faulted = 0;

		const pollOnce = async (allowFault: boolean) => {
			POLL_LIMITS.pageSize = rng.int(3, 60);
			const faultThisPoll = allowFault && rng.chance(0.2);
			if (faultThisPoll) fx.bank.addFault({ ...rng.pick(POLL_FAULTS), times: 1 });
			const before = fx.bank.requests().length;
			const result = await wf.poll();
			mostRequests = Math.max(mostRequests, fx.bank.requests().length - before);
			fx.bank.clearFaults();
			polls++;
			if (result.error) {
				faulted++;
				expect(result.items).toHaveLength(0);
			}
			for (const item of result.json) emitted.set(keyOf(item), (emitted.get(keyOf(item)) ?? 0) + 1);
			for (const entry of awaiting) entry.settleAfterPolls--;
			for (const entry of awaiting.filter((e) => e.settleAfterPolls <= 0)) settle(fx.bank, entry.transfer);
			awaiting.splice(0, awaiting.length, ...awaiting.filter((e) => e.settleAfterPolls > 0));
		};

		while (made.collections < collections || made.transfers < transfers) {
			bankNow += 5_000;
			if (!bankAhead) fakeClock.advance(5_000);
			// A burst of collections sharing one timestamp, sometimes written late (up to 30 s behind).
			const at = rng.chance(0.2) ? Math.max(startedAt + 1, bankNow - rng.int(0, 30_000)) : bankNow;
			const burst = Math.min(collections - made.collections, rng.int(0, 25));
			for (let i = 0; i < burst; i++) expected.set(`COLLECTION_SUCCESS:${collect(fx.bank, rng.pick(VIRTUALS), at)}`, 1);
			made.collections += burst;
			const batch = Math.min(transfers - made.transfers, rng.int(0, 8));
			for (let i = 0; i < batch; i++) {
				const kind = rng.pick(['intra', 'inter', 'inter', 'failing'] as const);
				const t = transfer(fx.bank, kind, at);
				if (kind === 'intra') expected.set(`TRANSFER_SUCCESS:${t.reference}`, 1);
				else {
					expected.set(`${kind === 'failing' ? 'TRANSFER_FAILED' : 'TRANSFER_SUCCESS'}:${t.reference}`, 1);
					awaiting.push({ transfer: t, settleAfterPolls: rng.int(0, 4) });
				}
			}
			made.transfers += batch;
			await pollOnce(true);
		}
		// Drain: the last pending transfers settle, and polls without faults collect the rest. A poll makes at most
		// Requests per Poll requests, so a backlog takes as many polls as it needs: poll until QUIET_POLLS polls in a
		// row emit nothing and no transfer is left to settle (bounded, so a trigger that never catches up fails).
		for (let i = 0, quiet = 0; i < 300 && quiet < QUIET_POLLS; i++) {
			const before = emitted.size;
			await pollOnce(false);
			quiet = emitted.size === before && awaiting.length === 0 ? quiet + 1 : 0;
		}

		const lost = [...expected.keys()].filter((key) => !emitted.has(key));
		const repeated = [...emitted.values()].reduce((sum, count) => sum + count - 1, 0);
		const unexpected = [...emitted.keys()].filter((key) => !expected.has(key));
		reportFigures(`${bankAhead ? 'poll-exactly-once-bank-ahead' : 'poll-exactly-once'} (${shape})`, {
			created: expected.size,
			emitted: [...emitted.values()].reduce((sum, count) => sum + count, 0),
			lost: lost.length,
			repeated,
			unexpected: unexpected.length,
			polls,
			faulted_polls: faulted,
			most_requests_in_a_poll: mostRequests,
		});
		expect(lost).toEqual([]);
		expect(repeated).toBe(0);
		expect(unexpected).toEqual([]);
		expect(faulted).toBeGreaterThan(0);
	}, sized(60_000, 600_000));

	it('requests per poll stay flat between 100 and 10,000 transactions that day', async () => {
		const perPoll: Record<number, number> = {};
		for (const dayTotal of [100, 10_000]) {
			fx.bank.reset();
			fx.bank.configure({ listShape: shape });
			const now = Date.now();
			// The day's earlier traffic, all older than the trigger's start (and inside the list's date window).
			for (let i = 0; i < dayTotal; i++) collect(fx.bank, VIRTUALS[i % VIRTUALS.length], now - 20 * 3_600_000 + i * 5_000);
			const wf = new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: EVENTS }, undefined, `wf-flat-${shape}-${dayTotal}`);
			await wf.poll();
			let requests = 0;
			const rounds = 5;
			for (let round = 0; round < rounds; round++) {
				for (let i = 0; i < 5; i++) collect(fx.bank);
				transfer(fx.bank, 'intra');
				const before = fx.bank.requests().length;
				const result = await wf.poll();
				expect(result.items).toHaveLength(6);
				requests += fx.bank.requests().length - before;
			}
			perPoll[dayTotal] = requests / rounds;
		}
		reportFigures(`poll-requests-per-poll (${shape})`, { at_100_tx_per_day: perPoll[100], at_10000_tx_per_day: perPoll[10_000] });
		expect(perPoll[10_000]).toBe(perPoll[100]);
	});
});
