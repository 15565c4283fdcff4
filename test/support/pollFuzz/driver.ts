/**
 * Runs one history against the trigger's seam, `pollOnce`, as n8n runs a poll node, with no engine and no HTTP:
 * a fake poll context (node, log, static data, a time budget or none), n8n's clock moving on by the bank's latency
 * per request, static data SAVED only when a poll emits (returns non-null), the live object kept between polls,
 * and a restart reloading the last saved copy (a JSON round trip; before the first emit, nothing). Then a drain of
 * polls without faults, and the ledger check (oracle.ts).
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { EventKind } from '../../../nodes/common/events';
import type { StreamName } from '../../../nodes/BaasPollTrigger/events';
import { pollOnce } from '../../../nodes/BaasPollTrigger/poll';
import { POLL_LIMITS } from '../../../nodes/BaasPollTrigger/settings';
import { Bank } from './bank';
import type { History } from './history';
import type { Activations, PollRecord, Violation } from './oracle';
import { DRAIN_BASE, Ledger, PENDING_RULE } from './oracle';

const NODE: INode = { id: 'fuzz', name: 'BaaS (Polling) Trigger', type: 'n8n-nodes-baas.baasPollTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
const MIN = 60_000;
const QUIET_POLLS = 3;
const STREAMS: StreamName[] = ['collections', 'transfers'];

export interface Outcome {
	seed: number;
	violations: Violation[];
	polls: number;
	drainPolls: number;
	events: number;
	/** What the trigger logged as warnings, in order. */
	warnings: string[];
	errors: number;
	listRequests: number;
	statusRequests: number;
	/**
	 * Events owed had the first start of each stream's place held, not owed after a restart before the first emit
	 * started it again (issue 33's F): n8n saves nothing until a poll emits, and docs/polling.md promises nothing
	 * here (it names this only for the durable scheduler). Counted, not a violation.
	 */
	lostToEarlyRestart: number;
	/**
	 * Outcomes of transfers pending at the start not emitted whose transfer was still pending when the start's reading
	 * of the pending transfers had ended (its saved scan gone): the reading missed it while it was there to read,
	 * rather than it turning final before its page could be read.
	 */
	missedWhilePending: number;
	/** Events owed and not yet emitted when the drain began, its bound in polls, and how many were still owed at its end. */
	drain: { owed: number; bound: number; left: number };
}

const savedStreams = (data: IDataObject) => (typeof data.streams === 'object' && data.streams !== null ? (data.streams as IDataObject) : {});

/** The seam driven: the trigger's pollOnce, or a stand-in (the ledger check's own tests). */
export type PollFn = typeof pollOnce;

/** `trace`: one line per poll, to tell what happened in a failing seed. */
export async function runHistory(h: History, trace?: (line: string) => void, pollFn: PollFn = pollOnce): Promise<Outcome> {
	const bank = new Bank(h.writes, { shape: h.shape, order: h.order, pageCap: h.pageCap, pageOffsets: h.pageOffsets, quotaPerMinute: h.quotaPerMinute, statusFailRate: h.statusFailRate, random: h.random });
	let clockMs = h.startMs;
	let live: IDataObject = {};
	let saved = '{}';
	let activations: Activations = {};
	let savedActivations: Activations = {};
	let firstActivations: Activations = {};
	const warnings: string[] = [];
	let errors = 0;
	const logger = { warn: (line: string) => warnings.push(line), error: () => errors++, info: () => undefined, debug: () => undefined, verbose: () => undefined };
	const context = {
		getNode: () => NODE,
		logger,
		getWorkflowStaticData: () => live,
		...(h.budgetMs !== undefined ? { getPollBudgetMs: () => h.budgetMs } : {}),
	} as unknown as IPollFunctions;
	// n8n's clock moves on by the bank's latency: each request takes it before the answer.
	const request = (async (...args: Parameters<Bank['request']>) => {
		clockMs += h.latencyMs;
		bank.advanceTo(clockMs);
		const answer = await bank.request(...args);
		if (trace !== undefined && process.env.FUZZ_REQUESTS !== undefined) trace(`    ${args[1]} ${JSON.stringify(args[2])} -> ${JSON.stringify(answer, (k, v) => (k === '' || k === 'data' || k === 'reference_number' || k === 'status' || /^\d+$/.test(k) || Array.isArray(v) ? v : undefined))}`);
		return answer;
	}) as Bank['request'];
	const polls: PollRecord[] = [];
	// n8n's time at the end of the first poll after which the transfers' start has no pending scan left to read.
	let scanEndedMs: number | undefined;

	const poll = async (dueMs: number): Promise<number> => {
		clockMs = Math.max(clockMs, dueMs);
		const startMs = clockMs;
		bank.advanceTo(startMs);
		const before = savedStreams(live);
		let items: INodeExecutionData[][] | null = null;
		let failed = false;
		// The time budget (budget.ts) reads Date.now(), not the seam's nowMs: n8n's simulated clock stands in for it.
		const realNow = Date.now;
		if (h.budgetMs !== undefined) Date.now = () => clockMs;
		try {
			items = await pollFn({ context, settings: h.settings, variant: 'api', nowMs: startMs, request });
		} catch (error) {
			errors++;
			failed = true;
			trace?.(`  failed: ${(error as Error).message}`);
		} finally {
			Date.now = realNow;
		}
		const after = savedStreams(live);
		for (const s of STREAMS) {
			if (before[s] !== undefined || after[s] === undefined) continue;
			activations = { ...activations, [s]: { startMs, endMs: clockMs } };
			firstActivations = { [s]: { startMs, endMs: clockMs }, ...firstActivations };
		}
		const transfers = after.transfers as IDataObject | undefined;
		if (scanEndedMs === undefined && typeof transfers === 'object' && transfers !== null && transfers.pendingScan === undefined) scanEndedMs = clockMs;
		const emitted = (items?.[0] ?? []).map((item) => ({ kind: item.json.event as EventKind, reference: String((item.json.data as IDataObject).reference_number) }));
		polls.push({ startMs, endMs: clockMs, emitted });
		trace?.(`poll ${polls.length - 1} ${new Date(startMs).toISOString().slice(11, 19)}..${new Date(clockMs).toISOString().slice(11, 19)}: ${items === null ? 'null' : emitted.map((e) => `${e.reference} ${e.kind}`).join(', ')}`);
		if (trace !== undefined) for (const line of describeState(live)) trace(`  ${line}`);
		// n8n saves the static data of a poll that emits, and of the activation poll (ActiveWorkflowManager.add()
		// saves the workflow's static data once it activated it, on n8n 1.123 and 2.41): a restart goes on from there.
		if (items !== null || (polls.length === 1 && !failed)) {
			saved = JSON.stringify(live);
			savedActivations = activations;
		}
		return emitted.length;
	};

	let restart = false;
	for (const plan of h.polls) {
		// A restart during down-time takes effect at the next poll n8n runs.
		restart ||= plan.restart === true;
		if (plan.down) {
			trace?.(`(down at ${new Date(plan.atMs).toISOString().slice(11, 19)})`);
			continue;
		}
		if (restart) {
			restart = false;
			trace?.('(restart)');
			live = JSON.parse(saved) as IDataObject;
			activations = savedActivations;
		}
		await poll(plan.atMs);
	}

	// The drain: the bank writes nothing more, no faults; polls every minute until every owed event is out.
	const endMs = h.polls[h.polls.length - 1].atMs;
	bank.advanceTo(Math.max(endMs, clockMs));
	const ledger = new Ledger(h, bank.nowMs);
	bank.freeze();
	const emittedKeys = new Set<string>();
	const note = (from: number) => polls.slice(from).forEach((p) => p.emitted.forEach((e) => emittedKeys.add(`${e.reference}|${e.kind}`)));
	note(0);
	let owedFor: [Activations, string[]] | undefined;
	const outstanding = () => {
		if (owedFor?.[0] !== activations) owedFor = [activations, [...ledger.owed(activations).keys()]];
		return owedFor[1].filter((key) => !emittedKeys.has(key));
	};
	const still = outstanding();
	const pageSize = Math.min(POLL_LIMITS.pageSize, h.pageCap ?? POLL_LIMITS.pageSize);
	const boundFor = (owed: string[]) => DRAIN_BASE + 4 * Math.ceil(owed.length / pageSize) + 2 * owed.filter((key) => !key.endsWith('COLLECTION_SUCCESS')).length;
	let bound = boundFor(still);
	let drainPolls = 0;
	let quiet = 0;
	let dueMs = Math.max(endMs, clockMs);
	// The trigger's saved state after each drain poll: one owing events whose state comes back to an earlier one
	// goes round in a cycle (the bank writes nothing in the drain), so no bound would have been enough.
	const statesAfter = new Map<string, number>();
	let cycle = 0;
	while (drainPolls < bound && quiet < QUIET_POLLS) {
		dueMs += MIN;
		const from = polls.length;
		const activatedBefore = activations;
		await poll(dueMs);
		drainPolls++;
		note(from);
		const left = outstanding();
		// A stream that started only now (its starts ran out of requests until the faults ended) owes what it owes
		// from here: the drain's bound counts it from this poll, as it counted the others from the drain's start.
		if (activations !== activatedBefore) bound = Math.max(bound, drainPolls + boundFor(left));
		quiet = left.length === 0 ? quiet + 1 : 0;
		// (Without the turn, a count kept below 840 that every count of lists divides: turns.ts.)
		const state = JSON.stringify({ ...(live.streams as IDataObject), turn: undefined });
		const earlier = statesAfter.get(state);
		cycle = earlier === undefined || left.length === 0 ? 0 : drainPolls - earlier;
		statesAfter.set(state, drainPolls);
	}
	const cycles = ` (in a cycle: the saved state came back every ${cycle} poll${cycle === 1 ? '' : 's'} of the drain)`;
	const violations = ledger.check(polls, activations, bank.refused).map((v) => (v.rule === 'missing after the drain' && cycle > 0 ? { ...v, detail: v.detail + cycles } : v));
	const events = polls.reduce((n, p) => n + p.emitted.length, 0);
	const missedWhilePending = violations.filter((v) => v.rule === PENDING_RULE && scanEndedMs !== undefined && v.reference !== undefined && ledger.pendingAt(v.reference, scanEndedMs)).length;
	const owedNow = ledger.owed(activations);
	const lostToEarlyRestart = [...ledger.owed(firstActivations).keys()].filter((key) => !owedNow.has(key)).length;
	return { seed: h.seed, violations, polls: polls.length, drainPolls, events, warnings, errors, listRequests: bank.listRequests, statusRequests: bank.statusRequests, missedWhilePending, lostToEarlyRestart, drain: { owed: still.length, bound, left: outstanding().length } };
}

/** Each list's saved state in one line, for --explain: its place, what it holds, its paging, transfers pending. */
function describeState(live: IDataObject): string[] {
	const streams = (live.streams ?? {}) as Record<string, IDataObject | undefined>;
	return Object.entries(streams)
		.filter((entry): entry is [string, IDataObject] => typeof entry[1] === 'object' && entry[1] !== null)
		.map(([name, s]) => {
			const mirror = !Array.isArray(s.mirror)
				? '?'
				: process.env.FUZZ_MIRROR !== undefined
					? `${s.mirror.length} [${s.mirror.map((entry) => (entry === '' ? '∅' : String(entry))).join(' ')}]`
					: `${s.mirror.length} (${String(s.mirror[0] ?? '-')}…${String(s.mirror[s.mirror.length - 1] ?? '-')})`;
			const floor = typeof s.floorMs === 'number' ? new Date(s.floorMs).toISOString().slice(11, 19) : String(s.floorMs);
			const pending = Array.isArray(s.pending) ? s.pending.length : 0;
			return `${name}: lag ${String(s.lag)} mirror ${mirror} floor ${floor}${s.unseenIsNew === true ? ' (every unseen record news)' : ''} paging ${JSON.stringify(s.paging)} pending ${pending}${s.searchFrom !== undefined ? ` search ${String(s.searchFrom)}..${String(s.searchTo)}` : ''}${s.heldPolls !== undefined ? ` held ${String(s.heldPolls)}` : ''}${s.check !== undefined ? ` check ${JSON.stringify(s.check)}` : ''}${s.belowDeepest !== undefined ? ` below ${JSON.stringify(s.belowDeepest)}` : ''}`;
		});
}
