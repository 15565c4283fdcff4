/**
 * The check for records written late (core/check.ts) fuzzed directly: no engine, no poll around it, a list served by
 * page number from an array (newest first) with the ground truth at hand. Each case: a follower standing at the top
 * of `handled` records, with history below them, then records written late at several depths (stretches from one
 * record to three pages), new records on top, and, in some cases, more of both between polls. Polls of `budget`
 * requests until everything is handed on. After every poll the saved state is held against the list itself:
 *
 * - exactness: nothing handed on twice, nothing handled or history handed on;
 * - the check's saved bounds (CheckProgress) say what is true of the list: every record listed between the place and
 *   `good` was handled (the check will not look there again), `bad` and `shallow` stand at the offsets saved, and
 *   they stand in the mirror's order (good above shallow above bad, shallow's offset the smaller);
 * - liveness: everything written is handed on within MAX_POLLS polls;
 * - order (docs/polling.md, "Its place"): a record written late comes no later than one poll after a newer record
 *   listed when it was, when the budget lets the check end in a poll (ROOMY_BUDGET).
 */
import { ListFollower } from '../../nodes/BaasPollTrigger/core/follow';
import { MALFORMED } from '../../nodes/BaasPollTrigger/core/memory';
import { boundsOf } from '../../nodes/BaasPollTrigger/core/offsets';
import type { ListState } from '../../nodes/BaasPollTrigger/core/types';
import { listToJson, parseListState } from '../../nodes/BaasPollTrigger/state';
import { pageOf, runCore } from './coreDriver';
import { prng } from './prng';

const T0 = Date.UTC(2026, 1, 1);
const NOW_MS = T0 + 86_400_000;
const SCOPE = 'api|';
/** Polls a case may take to hand everything on. */
export const MAX_POLLS = 60;
/** Requests a poll at which the check for a case's stretches ends in one poll (halving 300 records: 9 pages, and the rest). */
export const ROOMY_BUDGET = 30;

type Row = { reference: string; createdMs: number; writtenAtPoll: number };

export interface CheckCase {
	seed: number;
	handled: number;
	page: number;
	budget: number;
	history: number;
	/** Stretches written late: just above handled record `above` (-1: below the deepest), `length` records, before poll `atPoll`. */
	late: Array<{ above: number; length: number; atPoll: number }>;
	/** New records written on top before poll `atPoll`. */
	fresh: Array<{ length: number; atPoll: number }>;
}

export interface CheckRun {
	violations: string[];
	polls: number;
	requests: number;
}

const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)];

export function generateCheckCase(seed: number): CheckCase {
	const random = prng(seed);
	const handled = 2 + Math.floor(random() * 300);
	const page = pick(random, [1, 2, 3, 5, 7, 10, 20, 50] as const);
	const budget = 2 + Math.floor(random() * 30);
	const later = random() < 0.3;
	const atPoll = () => (later ? Math.floor(random() * 6) : 0);
	const late = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
		above: random() < 0.1 ? -1 : Math.floor(random() * handled),
		length: 1 + Math.floor(random() * (random() < 0.2 ? 3 * page : Math.min(page, 5))),
		atPoll: atPoll(),
	}));
	const fresh = random() < 0.5 ? [] : Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ length: 1 + Math.floor(random() * 2 * page), atPoll: atPoll() }));
	return { seed, handled, page, budget, history: Math.floor(random() * 6), late, fresh };
}

/** `trace`: a line per poll, to read a failing case. */
export function runCheckCase(c: CheckCase, trace?: (line: string) => void): CheckRun {
	const violations: string[] = [];
	// h0 (oldest handled) … h{n-1}, a second apart; history before the floor; late records between two handled ones.
	const handledRows: Row[] = Array.from({ length: c.handled }, (_, i) => ({ reference: `h${i}`, createdMs: T0 + (i + 1) * 1000, writtenAtPoll: -1 }));
	const historyRows: Row[] = Array.from({ length: c.history }, (_, i) => ({ reference: `old${i}`, createdMs: T0 - (i + 1) * 1000, writtenAtPoll: -1 }));
	const list: Row[] = [...[...handledRows].reverse(), ...historyRows];
	let state: ListState = {
		memory: { seen: new Map(handledRows.map((r) => [r.reference, r.createdMs])), mirror: [...handledRows].reverse().map((r) => r.reference) },
		lag: 0,
		floorMs: T0,
		paging: { cap: c.page, served: c.page },
	};
	const written = new Map<string, Row>();
	let freshCount = 0;
	const write = (poll: number) => {
		c.late.forEach((stretch, s) => {
			if (stretch.atPoll !== poll) return;
			// Created between the handled record it lies above and the next (or between the floor and h0).
			const baseMs = stretch.above < 0 ? T0 : handledRows[stretch.above].createdMs;
			const rows = Array.from({ length: stretch.length }, (_, k) => ({ reference: `late${s}-${k}`, createdMs: baseMs + 1 + 200 * s + k, writtenAtPoll: poll }));
			// The bank lists by created_at (the documented shape): each where its stamp puts it.
			for (const r of rows) {
				const at = list.findIndex((other) => other.createdMs < r.createdMs);
				list.splice(at < 0 ? list.length : at, 0, r);
			}
			rows.forEach((r) => written.set(r.reference, r));
		});
		for (const batch of c.fresh) {
			if (batch.atPoll !== poll) continue;
			const rows = Array.from({ length: batch.length }, (_, k) => ({ reference: `new${freshCount + k}`, createdMs: T0 + (c.handled + 1 + freshCount + k) * 1000, writtenAtPoll: poll }));
			freshCount += batch.length;
			list.unshift(...[...rows].reverse());
			rows.forEach((r) => written.set(r.reference, r));
		}
	};
	const emittedAt = new Map<string, number>();
	const lastWrite = Math.max(0, ...c.late.map((s) => s.atPoll), ...c.fresh.map((b) => b.atPoll));
	let requests = 0;
	let polls = 0;
	for (; polls < MAX_POLLS && (polls <= lastWrite || emittedAt.size < written.size); polls++) {
		write(polls);
		let left = c.budget;
		const follower = new ListFollower(state, { nowMs: NOW_MS, ordered: true, requestsLeft: () => left, bank: { served: c.page } });
		runCore(follower, {
			read: (window, atLeast) => {
				if (left < atLeast) return undefined;
				left--;
				requests++;
				const page = pageOf(list, window, (r) => ({ reference: r.reference, createdMs: r.createdMs, record: { reference_number: r.reference } }), c.page);
				trace?.(`  page ${window.page} of ${window.size}: ${page.slots.map((slot) => slot.reference).join(' ')}`);
				return page;
			},
			handOn: (slots) => {
				for (const slot of slots) {
					const reference = slot.reference as string;
					if (emittedAt.has(reference)) violations.push(`poll ${polls}: ${reference} handed on twice`);
					if (!written.has(reference)) violations.push(`poll ${polls}: ${reference} handed on, but it is ${reference.startsWith('old') ? 'history' : 'handled before'}`);
					emittedAt.set(reference, polls);
				}
				return slots.length;
			},
		});
		trace?.(`poll ${polls}: ${c.budget - left} requests, phase ${follower.phase}; lag ${String(state.lag)}, mirror ${state.memory.mirror.length}, list ${list.length}${state.check ? ` check ${JSON.stringify(state.check)}` : ''}${state.belowDeepest ? ` below ${JSON.stringify(state.belowDeepest)}` : ''}${state.searchFrom !== undefined ? ` search ${state.searchFrom}..${String(state.searchTo)}` : ''} paging ${JSON.stringify(state.paging)}`);
		// Saved as n8n saves a poll's static data (JSON), and read back by the next poll.
		state = parseListState(JSON.parse(JSON.stringify(listToJson(SCOPE, state))), SCOPE, NOW_MS, c.page) as ListState;
		// Its claims hold of the list as it was measured: checked where nothing was written after the first poll.
		if (lastWrite === 0) violations.push(...boundsAgainstTheList(state, list, polls));
	}
	for (const reference of written.keys()) if (!emittedAt.has(reference)) violations.push(`${reference} not handed on in ${MAX_POLLS} polls`);
	if (c.budget >= ROOMY_BUDGET) violations.push(...lateAfterNewer(written, emittedAt));
	return { violations, polls, requests };
}

/** What the saved CheckProgress claims, held against the list (once nothing more is written). */
function boundsAgainstTheList(state: ListState, list: Row[], poll: number): string[] {
	const check = state.check;
	if (check === undefined || state.lag === null) return [];
	const out: string[] = [];
	const mirror = state.memory.mirror;
	const indexOf = (reference: string | undefined) => (reference === undefined ? -1 : mirror.indexOf(reference));
	const rankOf = (reference: string) => list.findIndex((r) => r.reference === reference);
	const offsetOf = (reference: string) => rankOf(reference) - ((state.lag as number) + indexOf(reference));
	const place = mirror.find((reference) => reference !== MALFORMED);
	if (check.good !== undefined && place !== undefined) {
		const unhandled = list.slice(rankOf(place), rankOf(check.good)).filter((r) => !state.memory.seen.has(r.reference));
		if (unhandled.length > 0) out.push(`poll ${poll}: good ${check.good}, but ${unhandled.map((r) => r.reference).join(', ')} above it not handled`);
	}
	// Each bound is a fact a page showed: its record stood `span` ranks below `head` in the list.
	for (const [name, seen] of [['bad', check.bad], ['shallow', check.shallow]] as const) {
		if (seen !== undefined && rankOf(seen.reference) - rankOf(seen.anchor) !== seen.span) out.push(`poll ${poll}: ${name} ${seen.reference} saved ${seen.span} below ${seen.anchor}, stands ${rankOf(seen.reference) - rankOf(seen.anchor)} below it`);
	}
	const bounds = boundsOf(mirror, check);
	if (check.bad !== undefined && bounds.offset !== undefined && offsetOf(check.bad.reference) !== bounds.offset) out.push(`poll ${poll}: bad ${check.bad.reference} at offset ${bounds.offset}, stands at ${offsetOf(check.bad.reference)}`);
	if (bounds.shallow !== undefined) {
		const shallow = indexOf(bounds.shallow);
		const between = shallow > indexOf(bounds.good) && (bounds.bad === undefined || shallow < indexOf(bounds.bad));
		if (!between || (bounds.offset !== undefined && (bounds.shallowOffset ?? 0) >= bounds.offset)) out.push(`poll ${poll}: bounds out of order ${JSON.stringify(bounds)}`);
	}
	return out;
}

/** Records written late that came more than a poll after a newer record listed when they were. */
function lateAfterNewer(written: Map<string, Row>, emittedAt: Map<string, number>): string[] {
	const out: string[] = [];
	for (const late of written.values()) {
		const at = emittedAt.get(late.reference);
		if (!late.reference.startsWith('late') || at === undefined) continue;
		const newer = [...written.values()].find((r) => {
			const came = emittedAt.get(r.reference);
			return r.createdMs > late.createdMs && r.writtenAtPoll <= late.writtenAtPoll && came !== undefined && came >= late.writtenAtPoll && came < at - 1;
		});
		if (newer !== undefined) out.push(`${late.reference} at poll ${at}, after ${newer.reference} at poll ${String(emittedAt.get(newer.reference))}`);
	}
	return out;
}
