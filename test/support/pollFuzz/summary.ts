/** Runs a range of seeds and sums up what the ledger check found: histories wrong by rule and list shape, first seeds. */
import { PENDING_AT_START } from '../../../nodes/BaasPollTrigger/emitter';
import type { ListShape } from './bank';
import { runHistory } from './driver';
import type { Size } from './history';
import { generate } from './history';
import type { Rule } from './oracle';
import { PENDING_RULE } from './oracle';

/** Seeds listed for each rule (FUZZ_SEEDS in the environment lists more: a whole class to study). */
export const SEEDS_KEPT = Number(process.env.FUZZ_SEEDS ?? '') || 5;

export interface Summary {
	histories: number;
	wrong: number;
	events: number;
	polls: number;
	/** Histories where a restart before the first emit started a place again, and the events it cost (not owed). */
	earlyRestarts: { histories: number; events: number };
	byShape: Partial<Record<ListShape, { histories: number; wrong: number }>>;
	/** Histories breaking each rule (a history counts once per rule), by shape, and the first seeds. */
	byRule: Partial<Record<Rule, RuleSummary>>;
}

interface RuleSummary {
	histories: number;
	/** Of those, histories whose trigger warned that outcomes of transfers pending at its start may not come (emitter.ts, any kind). */
	warnedOfPendingScan: number;
	/** The first seeds of those not warned (a trigger at a risk it did not tell of). */
	unwarned: number[];
	/**
	 * Of the pending-outcome histories, those where a lost transfer was still pending when the start's reading of the
	 * pending transfers ended (driver.ts, missedWhilePending): lost by how the list was read, not by the budget.
	 */
	missedWhilePending: number;
	byShape: Partial<Record<ListShape, number>>;
	first: { seed: number; shape: string; detail: string; features: string }[];
}

export const emptySummary = (): Summary => ({ histories: 0, wrong: 0, events: 0, polls: 0, earlyRestarts: { histories: 0, events: 0 }, byShape: {}, byRule: {} });

export async function fuzz(from: number, count: number, shapes: ListShape[], size: Size = 'short', into: Summary = emptySummary()): Promise<Summary> {
	for (let seed = from; seed < from + count; seed++) {
		for (const shape of shapes) {
			const h = generate(seed, shape, size);
			const outcome = await runHistory(h);
			into.histories++;
			into.events += outcome.events;
			into.polls += outcome.polls;
			if (outcome.lostToEarlyRestart > 0) {
				into.earlyRestarts.histories++;
				into.earlyRestarts.events += outcome.lostToEarlyRestart;
			}
			const perShape = (into.byShape[shape] ??= { histories: 0, wrong: 0 });
			perShape.histories++;
			if (outcome.violations.length === 0) continue;
			into.wrong++;
			perShape.wrong++;
			const warned = outcome.warnings.some((line) => line.includes(PENDING_AT_START));
			const rules = new Map<Rule, string>();
			for (const v of outcome.violations) if (!rules.has(v.rule)) rules.set(v.rule, v.detail);
			for (const [rule, detail] of rules) {
				const entry = (into.byRule[rule] ??= { histories: 0, warnedOfPendingScan: 0, unwarned: [], missedWhilePending: 0, byShape: {}, first: [] });
				entry.histories++;
				if (warned) entry.warnedOfPendingScan++;
				else if (!entry.unwarned.includes(seed) && entry.unwarned.length < SEEDS_KEPT) entry.unwarned.push(seed);
				if (rule === PENDING_RULE && outcome.missedWhilePending > 0) entry.missedWhilePending++;
				entry.byShape[shape] = (entry.byShape[shape] ?? 0) + 1;
				const same = entry.first.find((f) => f.seed === seed);
				if (same !== undefined) same.shape += `, ${shape}`;
				else if (entry.first.length < SEEDS_KEPT) entry.first.push({ seed, shape, detail, features: h.features.join('; ') });
			}
		}
	}
	return into;
}

/** Adds `b` into `a` (workers' summaries); the first seeds kept are the smallest. */
export function merge(a: Summary, b: Summary): Summary {
	a.histories += b.histories;
	a.wrong += b.wrong;
	a.events += b.events;
	a.polls += b.polls;
	a.earlyRestarts.histories += b.earlyRestarts.histories;
	a.earlyRestarts.events += b.earlyRestarts.events;
	for (const [shape, s] of Object.entries(b.byShape) as [ListShape, { histories: number; wrong: number }][]) {
		const t = (a.byShape[shape] ??= { histories: 0, wrong: 0 });
		t.histories += s.histories;
		t.wrong += s.wrong;
	}
	for (const [rule, r] of Object.entries(b.byRule) as [Rule, RuleSummary][]) {
		const t = (a.byRule[rule] ??= { histories: 0, warnedOfPendingScan: 0, unwarned: [], missedWhilePending: 0, byShape: {}, first: [] });
		t.histories += r.histories;
		t.warnedOfPendingScan += r.warnedOfPendingScan ?? 0;
		t.missedWhilePending += r.missedWhilePending ?? 0;
		for (const [shape, n] of Object.entries(r.byShape) as [ListShape, number][]) t.byShape[shape] = (t.byShape[shape] ?? 0) + n;
		t.unwarned = [...new Set([...t.unwarned, ...(r.unwarned ?? [])])].sort((x, y) => x - y).slice(0, SEEDS_KEPT);
		t.first = [...t.first, ...r.first].sort((x, y) => x.seed - y.seed).slice(0, SEEDS_KEPT);
	}
	return a;
}

/** The summary as lines of text: rate, histories wrong by shape, then by rule with the first seeds. */
export function report(s: Summary, ms: number): string[] {
	const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;
	const lines = [
		`${s.histories} histories in ${(ms / 1000).toFixed(1)} s: ${Math.round((s.histories * 60_000) / Math.max(1, ms))} histories/min; ${s.polls} polls, ${s.events} events`,
		`wrong: ${s.wrong} (${pct(s.wrong, s.histories)})` +
			Object.entries(s.byShape)
				.map(([shape, x]) => `; ${shape} ${x.wrong}/${x.histories} (${pct(x.wrong, x.histories)})`)
				.join(''),
	];
	if (s.earlyRestarts.histories > 0) {
		lines.push(`not owed (docs/polling.md promises nothing): ${s.earlyRestarts.events} events of ${s.earlyRestarts.histories} histories written between a first poll and a restart before the first emit`);
	}
	for (const [rule, r] of Object.entries(s.byRule).sort((x, y) => (y[1]?.histories ?? 0) - (x[1]?.histories ?? 0))) {
		if (r === undefined) continue;
		const unwarned = rule === PENDING_RULE && r.unwarned.length > 0 ? ` (first seeds not warned: ${r.unwarned.join(', ')})` : '';
		const warned = r.warnedOfPendingScan > 0 ? `; warned of a start's pending transfers in ${r.warnedOfPendingScan}${unwarned}` : '';
		const missed = rule === PENDING_RULE ? `; still pending when the start's reading of them ended in ${r.missedWhilePending}` : '';
		lines.push(`  ${rule}: ${r.histories} (${Object.entries(r.byShape).map(([shape, n]) => `${shape} ${n}`).join(', ')})${warned}${missed}`);
		for (const f of r.first) lines.push(`    seed ${f.seed} (${f.shape}): ${f.detail} [${f.features}]`);
	}
	return lines;
}
