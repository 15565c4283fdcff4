/**
 * Randomized model checking of the Poll Trigger (issue 26): a seeded generator makes bank histories — bursts in
 * one instant, late and future-stamped records, transfers that settle, fail or are reversed, malformed entries,
 * records landing between two pages of one poll — under a random bank (list shape and order, page cap, list
 * quota, faults) and a random n8n (page size, Requests per Poll, restarts, time down); the trigger polls it once a
 * minute, then drains; the oracle (pollOracle.ts) checks the emitted sequence against the bank's ledger. A history
 * is replayed from its seed alone (BAAS_POLL_MODEL_SEED).
 */
import type { ListOrder, ListShape, MalformedKind, SandboxHandle } from '../../../sandbox';
import { Prng } from '../../../sandbox/data/prng';
import type { Transfer } from '../../../sandbox/state/records';
import { MALFORMED_KINDS } from '../../../sandbox/types';
import type { EventKind } from '../../../nodes/common/events';
import { leastRequestsFor, POLL_LIMITS } from '../../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../../nodes/BaasPollTrigger/signInPause';
import { reportFigures } from '../reliability/scale';
import { collect, POLL_FAULTS, reverse, settle, transfer, VIRTUALS } from './bankActivity';
import { useBankFixture } from './bankFixture';
import type { TestCredentialsHelper } from './credentialsHelper';
import { PollDriver } from './pollDriver';
import { ALL_EVENTS, describeVerdict, findingsOf, NOTHING_WRONG, type Verdict } from './pollOracle';
import { collectLogs, fakeClock, PollingWorkflow } from './pollWorkflow';

const MINUTE = 60_000;

/** How big the histories are: minutes of activity, the largest burst. */
export interface ModelSize {
	minutes: number;
	largestBurst: number;
}

/** The random bank and n8n of one history. */
export interface HistoryPlan {
	seed: number;
	shape: ListShape;
	order: ListOrder;
	pageCap: number | null;
	quota: number | null;
	pageSize: number;
	requestBudget: number;
	/** The bank's clock ahead of n8n's (ms). */
	bankAheadMs: number;
}

export interface HistoryResult {
	plan: HistoryPlan;
	verdict: Verdict;
	polls: number;
	/** One line per minute of the history: what happened (for a reader replaying it). */
	steps: string[];
}

/** The smallest Requests per Poll the node accepts for every event (it refuses less at activation, naming the minimum). */
function smallestRequestBudget(): number {
	return leastRequestsFor(ALL_EVENTS as EventKind[]);
}

export function planOf(seed: number): HistoryPlan {
	const rng = new Prng(seed);
	return {
		seed,
		// Both shapes, alternately, so any run covers each.
		shape: seed % 2 === 0 ? 'documented' : 'cursor',
		order: rng.chance(0.3) ? 'recorded' : 'created',
		pageCap: rng.chance(0.4) ? rng.int(5, 100) : null,
		quota: rng.chance(0.3) ? rng.int(5, 30) : null,
		pageSize: rng.pick([5, 7, 20, 50, 100, 100]),
		requestBudget: rng.chance(0.3) ? smallestRequestBudget() + rng.int(0, 3) : rng.int(smallestRequestBudget(), 30),
		bankAheadMs: rng.chance(0.2) ? rng.int(1, 30) * MINUTE : 0,
	};
}

export const describePlan = (p: HistoryPlan) =>
	`seed ${p.seed}: ${p.shape} shape, ${p.order} order, page cap ${p.pageCap ?? 'none'}, quota ${p.quota ?? 'none'}/min, ` +
	`trigger pages of ${p.pageSize}, Requests per Poll ${p.requestBudget}, bank clock ${p.bankAheadMs / MINUTE} min ahead`;

/**
 * Runs one history on `bank` (reset first; its list configuration set from the plan) and returns the oracle's
 * verdict. POLL_LIMITS.pageSize is changed: the caller puts it back.
 */
export async function runHistory(
	bank: SandboxHandle,
	credentials: TestCredentialsHelper,
	seed: number,
	size: ModelSize,
): Promise<HistoryResult> {
	const plan = planOf(seed);
	const rng = new Prng(seed * 7919 + 1);
	bank.reset();
	bank.configure({ listShape: plan.shape, listOrder: plan.order, pageCap: plan.pageCap, listQuotaPerMinute: plan.quota });
	POLL_LIMITS.pageSize = plan.pageSize;
	fakeClock.start(Date.UTC(2026, 1, 1) + seed * MINUTE);
	const wf = new PollingWorkflow(
		credentials,
		{ authentication: 'apiClient', events: ALL_EVENTS, options: { requestBudget: plan.requestBudget } },
		undefined,
		`wf-model-${seed}`,
	);
	const driver = new PollDriver(bank, wf);
	const steps: string[] = [];
	const awaiting: Array<{ transfer: Transfer; atMs: number }> = [];
	const paid: Transfer[] = [];
	let landing = 0;
	const off = bank.onListServed(() => {
		if (landing > 0) {
			landing--;
			collect(bank, rng.pick(VIRTUALS), Date.now() + plan.bankAheadMs);
		}
	});
	try {
		const activation = await driver.activate();
		steps.push(`activation${activation.error ? `: ${activation.error.message}` : ''}`);
		let down = 0;
		for (let minute = 1; minute <= size.minutes; minute++) {
			fakeClock.advance(MINUTE);
			const bankNow = Date.now() + plan.bankAheadMs;
			const did: string[] = [];
			const singles = rng.int(0, 3);
			for (let i = 0; i < singles; i++) collect(bank, rng.pick(VIRTUALS), bankNow - rng.int(0, 50_000));
			if (singles) did.push(`${singles} collections`);
			if (rng.chance(0.15)) {
				const count = rng.int(5, size.largestBurst);
				const at = bankNow - rng.int(0, 50_000);
				for (let i = 0; i < count; i++) collect(bank, rng.pick(VIRTUALS), at);
				did.push(`burst of ${count} in one instant`);
			}
			if (rng.chance(0.1)) {
				const lateBy = rng.int(1, 10);
				collect(bank, rng.pick(VIRTUALS), bankNow - lateBy * MINUTE);
				did.push(`a collection written ${lateBy} min late`);
			}
			if (rng.chance(0.05)) {
				const aheadBy = rng.int(1, 60);
				collect(bank, rng.pick(VIRTUALS), bankNow + aheadBy * MINUTE);
				did.push(`a collection stamped ${aheadBy} min ahead`);
			}
			if (rng.chance(0.05)) {
				const as: MalformedKind = rng.pick(MALFORMED_KINDS);
				bank.markMalformed(collect(bank, rng.pick(VIRTUALS), bankNow), as);
				did.push(`a collection served as ${as}`);
			}
			const transfers = rng.chance(0.3) ? rng.int(1, 4) : 0;
			for (let i = 0; i < transfers; i++) {
				const kind = rng.pick(['intra', 'intra', 'inter', 'failing'] as const);
				const t = transfer(bank, kind, bankNow - rng.int(0, 50_000));
				if (kind !== 'intra') awaiting.push({ transfer: t, atMs: Date.now() + rng.int(0, 4) * MINUTE });
				else paid.push(t);
				did.push(`${kind} transfer`);
			}
			for (const entry of awaiting.filter((a) => a.atMs <= Date.now())) settle(bank, entry.transfer);
			awaiting.splice(0, awaiting.length, ...awaiting.filter((a) => a.atMs > Date.now()));
			// A reversal: a transfer the trigger reported successful, within the 24-hour look-back.
			const reversible = paid.filter((t) => t.status === 'successful' && driver.oracle.has(`TRANSFER_SUCCESS:${t.reference}`));
			if (reversible.length > 0 && rng.chance(0.05)) {
				reverse(bank, rng.pick(reversible));
				did.push('a successful transfer reversed');
			}
			if (down > 0) {
				down--;
				steps.push(`minute ${minute} (n8n down): ${did.join(', ') || '-'}`);
				continue;
			}
			if (rng.chance(0.04)) {
				down = rng.int(2, 30);
				steps.push(`minute ${minute}: ${did.join(', ') || '-'}; n8n goes down for ${down} min`);
				continue;
			}
			if (rng.chance(0.1)) {
				wf.restart();
				did.push('n8n restarted');
			}
			if (rng.chance(0.1)) {
				landing = rng.int(1, 3);
				did.push(`${landing} collection(s) landing between pages`);
			}
			const fault = rng.chance(0.15) ? rng.pick(POLL_FAULTS) : undefined;
			if (fault) {
				bank.addFault({ ...fault, times: 1 });
				did.push(`fault ${JSON.stringify(fault)}`);
			}
			const figures = await driver.poll();
			bank.clearFaults();
			landing = 0;
			steps.push(`minute ${minute}: ${did.join(', ') || '-'}; poll emitted ${figures.emitted}${figures.error ? ` (failed: ${figures.error.message.slice(0, 60)})` : ''}`);
		}
		// Drain: the last transfers settle; polls without faults until the ledger's every event was emitted and then
		// three in a row emit nothing (repeats would show there), at most 120. Exactly once and oldest first are judged
		// here, not how fast: at a small Requests per Poll a search for the place takes a request a poll, and the
		// polls that search emit nothing. Latency has its own tests (poll-contract-*.test.ts).
		// At a small Requests per Poll a poll reads about one page of a backlog, placed so that its place lies two
		// records above the page's bottom (windows.ts): a page of 5 then holds 1.9 records not yet emitted on average,
		// of 7 2.6, of 20 13. The drain allows four polls for each page of what is still to come.
		for (const entry of awaiting) settle(bank, entry.transfer);
		const most = 120 + 4 * Math.ceil(driver.oracle.check().missing.length / plan.pageSize);
		const drained = await driver.pollUntilQuiet({ everyMs: MINUTE, quiet: 3, most, settled: () => driver.oracle.check().missing.length === 0 });
		steps.push(`drain: ${drained} polls`);
	} finally {
		off();
		fakeClock.stop();
	}
	return { plan, verdict: driver.oracle.check(), polls: driver.polls.length, steps };
}

/** A failed history in a few lines: the plan, the findings and the last steps. */
export function describeFailure(result: HistoryResult): string {
	const steps = result.steps.length > 40 ? ['…', ...result.steps.slice(-40)] : result.steps;
	return [`${describePlan(result.plan)}`, `  ${describeVerdict(result.verdict)}`, ...steps.map((s) => `  ${s}`)].join('\n');
}

/**
 * The model-checking suite: `histories` histories from `firstSeed` on (or only BAAS_POLL_MODEL_SEED, to replay
 * one), each checked by the oracle; prints the figures and, for each failed history, its seed and description.
 */
export function modelCheckingSuite(
	name: string,
	options: {
		histories: number;
		firstSeed: number;
		size: ModelSize;
		timeoutMs: number;
		/**
		 * Histories the trigger still gets wrong (issue 26 stays open for them): run and printed with their findings,
		 * not asserted, so that every other history is. Remove a seed once it passes.
		 */
		knownOpen?: number[];
	},
): void {
	const fx = useBankFixture({ transactions: 0 });
	collectLogs();
	const pageSize = POLL_LIMITS.pageSize;
	afterEach(() => {
		POLL_LIMITS.pageSize = pageSize;
		clearPause();
	});
	const replay = process.env.BAAS_POLL_MODEL_SEED;
	// BAAS_POLL_MODEL_SEEDS=2001-2100: other histories than the suite's own, every one asserted (a sweep).
	const range = /^(\d+)-(\d+)$/.exec(process.env.BAAS_POLL_MODEL_SEEDS ?? '');
	const firstSeed = range ? Number(range[1]) : options.firstSeed;
	const histories = range ? Number(range[2]) - firstSeed + 1 : options.histories;
	const seeds = replay ? [Number(replay)] : Array.from({ length: histories }, (_, i) => firstSeed + i);

	it(`${seeds.length} random bank histories: every event once, oldest first`, async () => {
		const failed: HistoryResult[] = [];
		let events = 0;
		let polls = 0;
		for (const seed of seeds) {
			const result = await runHistory(fx.bank, fx.credentials, seed, options.size);
			POLL_LIMITS.pageSize = pageSize;
			clearPause();
			events += result.verdict.expected;
			polls += result.polls;
			if (JSON.stringify(findingsOf(result.verdict)) !== JSON.stringify(NOTHING_WRONG)) failed.push(result);
			if (replay) process.stdout.write(`${describeFailure(result)}\n`);
		}
		const knownOpen = new Set(replay || range ? [] : (options.knownOpen ?? []));
		const asserted = failed.filter((r) => !knownOpen.has(r.plan.seed));
		const open = failed.filter((r) => knownOpen.has(r.plan.seed));
		reportFigures(name, {
			histories: seeds.length,
			events_checked: events,
			polls,
			failed_histories: asserted.length,
			failed_seeds: asserted.map((r) => r.plan.seed).slice(0, 20).join('/') || 'none',
			known_open_histories: knownOpen.size,
			known_open_still_failing:
				open.map((r) => `${r.plan.seed}:missing=${r.verdict.missing.length}/${r.verdict.expected},out_of_order=${r.verdict.outOfOrder.length},repeated=${r.verdict.repeated.length}`).join(' ') || 'none',
		});
		if (!replay) for (const result of asserted.slice(0, 3)) process.stdout.write(`${name}: failed history (replay: BAAS_POLL_MODEL_SEED=${result.plan.seed})\n${describeFailure(result)}\n`);
		expect(asserted.map((r) => describePlan(r.plan))).toEqual([]);
	}, options.timeoutMs);
}
