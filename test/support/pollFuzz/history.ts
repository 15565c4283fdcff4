/**
 * Seeded histories of a bank and of n8n around one Poll Trigger: what the bank writes when (collections, transfers
 * pending then final, reversals, same-instant bursts, records written late inside the overlap, records stamped in
 * the future, malformed entries), how its clock stands against n8n's (offset -60..+60 min, sometimes drifting),
 * how it pages (a cap, or none) and rate-limits, and what n8n does (polls, down-time, restarts, a time budget).
 * A seed gives the same history on every machine: the PRNG is our own (mulberry32).
 */
import type { EventKind } from '../../../nodes/common/events';
import type { PollSettings } from '../../../nodes/BaasPollTrigger/settings';
import { leastRequestsFor } from '../../../nodes/BaasPollTrigger/settings';
import { prng } from '../prng';
import type { BankRecord, Kind, ListOrder, ListShape, Malformation, Status, Write } from './bank';

export { prng };

export type Size = 'short' | 'long';

export interface PollPlan {
	/** n8n's clock when the poll is due. */
	atMs: number;
	/** n8n is down: the poll is skipped. */
	down?: boolean;
	/** n8n restarted before this poll: static data is the last saved copy. */
	restart?: boolean;
}

export interface History {
	seed: number;
	shape: ListShape;
	order: ListOrder;
	pageCap?: number;
	/** Where page P starts under a cap: after (P − 1) × the size served, or × the size asked (the contract says neither). */
	pageOffsets?: 'served' | 'asked';
	quotaPerMinute?: number;
	statusFailRate: number;
	settings: PollSettings;
	/** n8n's poll time budget (getPollBudgetMs), or none (n8n 1.x). */
	budgetMs?: number;
	/** How long each request takes (n8n's clock moves on during a poll). */
	latencyMs: number;
	/** The bank's clock = n8n's + offset0Ms + driftPerMs * (n8n ms since startMs, 0 before it). */
	offset0Ms: number;
	driftPerMs: number;
	startMs: number;
	polls: PollPlan[];
	writes: Write[];
	/** The bank's own randomness (83 answers). */
	random: () => number;
	/** What is unusual about it, for the report. */
	features: string[];
}

const MIN = 60_000;
export const ACCOUNT = '0123456789';
const OTHER_ACCOUNT = '0987654321';
/** How far behind the newest stamp a record is ever written: inside the 15 min overlap docs/polling.md promises. */
export const MAX_LATE_MS = 10 * MIN;
export const EVENT_SETS: EventKind[][] = [
	['COLLECTION_SUCCESS'],
	['TRANSFER_SUCCESS'],
	['TRANSFER_FAILED'],
	['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS'],
	['COLLECTION_SUCCESS', 'TRANSFER_FAILED'],
	['TRANSFER_SUCCESS', 'TRANSFER_FAILED'],
	['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'],
];

export function generate(seed: number, shape: ListShape, size: Size = 'short'): History {
	const r = prng(seed);
	const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
	const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
	const chance = (p: number) => r() < p;
	const long = size === 'long';
	const features: string[] = [];
	const note = (f: string) => features.push(f);

	const startMs = Date.UTC(2026, 2, 2) + int(0, 24 * 60) * MIN;
	const offset0Ms = chance(0.2) ? 0 : int(-3600, 3600) * 1000;
	const nPolls = long ? int(30, 150) : int(5, 20);
	const polls: PollPlan[] = [];
	for (let t = startMs, i = 0; i < nPolls; i++, t += chance(0.15) ? int(2, 5) * MIN : MIN) polls.push({ atMs: t });
	const endMs = polls[polls.length - 1].atMs;
	const driftTotal = chance(0.3) ? int(-600, 600) * 1000 : 0;
	const driftPerMs = driftTotal / Math.max(MIN, endMs - startMs);
	// The drift starts with the history: before it the bank's clock stood at offset0Ms (a clock put back by more than
	// the overlap is a case docs/polling.md promises nothing for).
	const bankAt = (ms: number) => ms + offset0Ms + driftPerMs * Math.max(0, ms - startMs);
	note(`clock ${Math.round(offset0Ms / MIN)} min${driftTotal !== 0 ? ` drifting ${Math.round(driftTotal / MIN)} min` : ''}`);

	if (chance(0.25)) {
		const from = int(1, nPolls - 1);
		const to = Math.min(nPolls, from + int(1, long ? 40 : 8));
		for (let i = from; i < to; i++) polls[i].down = true;
		if (to < nPolls && chance(0.7)) polls[to].restart = true;
		note(`down polls ${from}-${to - 1}`);
	}
	// Also before the first emit, which loses the first poll's state (n8n saves static data only when a poll emits).
	if (chance(0.1)) {
		polls[int(1, Math.min(2, nPolls - 1))].restart = true;
		note('restart early');
	}
	if (chance(0.15)) {
		polls[int(1, nPolls - 1)].restart = true;
		note('restart');
	}

	const events = pick(EVENT_SETS);
	const least = leastRequestsFor(events);
	const requestBudget = chance(0.35) ? least : chance(0.55) ? least + int(1, 4) : int(least, 40);
	const startFromMs = chance(0.2) ? bankAt(startMs) - int(0, 120) * MIN : undefined;
	const settings: PollSettings = { events, output: 'event', requestBudget, accountNumber: chance(0.3) ? ACCOUNT : undefined, startFromMs };
	note(`events ${events.map((e) => e.split('_').map((w) => w[0]).join('')).join('+')} rpp ${requestBudget}${startFromMs !== undefined ? ' startFrom' : ''}${settings.accountNumber ? ' account' : ''}`);

	const budgetMs = chance(0.3) ? pick([45_000, 300_000]) : undefined;
	let latencyMs = chance(0.5) ? 0 : int(20, 2000);
	// The time budget must leave room for the minimum Requests per Poll (docs/polling.md promises nothing below it).
	if (budgetMs !== undefined) latencyMs = Math.min(latencyMs, Math.floor((budgetMs * 0.6) / (least + 3)));
	const pageCap = chance(0.3) ? undefined : chance(0.15) ? 1 : chance(0.45) ? int(2, 10) : int(11, 150);
	const quotaPerMinute = chance(0.2) ? int(2, 30) : undefined;
	const statusFailRate = chance(0.2) ? int(5, 30) / 100 : 0;
	const order: ListOrder = chance(0.2) ? 'recorded' : 'created';
	// From the seed, not the PRNG: the histories drawn before this choice existed stay as they were.
	const pageOffsets = pageCap !== undefined && seed % 2 === 1 ? 'asked' : 'served';
	note(`cap ${pageCap ?? 'none'}${pageOffsets === 'asked' ? ' numbered as asked' : ''}${quotaPerMinute ? ` quota ${quotaPerMinute}` : ''}${statusFailRate ? ` 83s ${statusFailRate}` : ''}${budgetMs ? ` budget ${budgetMs / 1000}s` : ''}${latencyMs ? ` latency ${latencyMs}ms` : ''} ${order}`);

	const writes: Write[] = [];
	let n = 0;
	let maxStampMs = -Infinity;
	const amount = () => `${int(1, 250_000)}.${String(int(0, 99)).padStart(2, '0')}`;
	// Now and then a reference that is a property name of every object (docs/polling.md: none is special).
	const reference = (kind: Kind) => (chance(0.005) ? pick(['__proto__', 'constructor']) : `${kind === 'collection' ? 'COL' : 'TRF'}-${seed}-${n++}`);
	const used = new Set<string>();
	const malformedOf = (): Malformation | undefined => (chance(0.02) ? pick(['null', 'noReference', 'badCreatedAt'] as const) : undefined);

	/** A transfer's later status changes: pending → final after seconds..hours; success → failed (reversed). */
	const outcomes = (ref: string, atMs: number, status: Status) => {
		let finalAt = atMs;
		if (status === 'pending') {
			finalAt = atMs + pick([() => int(5, 60) * 1000, () => int(1, 30) * MIN, () => int(60, 300) * MIN])();
			status = chance(0.85) ? 'success' : 'failed';
			writes.push({ atMs: finalAt, update: { reference: ref, status, bankMs: bankAt(finalAt) } });
		}
		if (status === 'success' && chance(0.08)) {
			const reversedAt = finalAt + int(1, 60) * MIN;
			writes.push({ atMs: reversedAt, update: { reference: ref, status: 'failed', bankMs: bankAt(reversedAt) } });
		}
	};

	const write = (atMs: number, kind: Kind, createdMs: number, status: Status) => {
		let ref = reference(kind);
		if (used.has(ref)) ref = `${ref}-${n++}`;
		used.add(ref);
		const record: Omit<BankRecord, 'updatedMs'> = { id: 0, reference: ref, account: chance(0.8) ? ACCOUNT : OTHER_ACCOUNT, kind, amount: amount(), createdMs, status, malformed: malformedOf() };
		writes.push({ atMs, create: record });
		if (kind === 'transfer') outcomes(ref, atMs, status);
	};
	const newStatus = (kind: Kind): Status => (kind === 'collection' ? 'success' : pick(['success', 'success', 'success', 'failed', 'pending', 'pending'] as const));
	const newKind = (): Kind => (chance(0.6) ? 'collection' : 'transfer');

	// Before the first poll: what the bank holds already (history, unless Start From reaches it).
	const before = long ? int(0, 500) : int(0, 40);
	for (let i = 0; i < before; i++) {
		const atMs = startMs - int(1, 180 * 60) * 1000;
		const kind = newKind();
		write(atMs, kind, Math.floor(bankAt(atMs) / 1000) * 1000, newStatus(kind));
	}
	writes.sort((a, b) => a.atMs - b.atMs);
	for (const w of writes) if ('create' in w) maxStampMs = Math.max(maxStampMs, w.create.createdMs);

	// During the history: a rate per minute, bursts at one instant, records written late or stamped ahead.
	const rate = r() * (long ? 10 : 3);
	let late = 0;
	let future = 0;
	let bursts = 0;
	for (let minute = startMs - MIN; minute < endMs; minute += MIN) {
		const count = Math.floor(r() * r() * rate * 2.5);
		for (let i = 0; i < count; i++) {
			const atMs = minute + int(0, 59_999);
			const kind = newKind();
			let createdMs = Math.floor(bankAt(atMs) / 1000) * 1000;
			if (chance(0.08)) {
				createdMs -= int(1, MAX_LATE_MS / 1000) * 1000;
				late++;
			} else if (chance(0.03)) {
				createdMs += int(60, 3600) * 1000;
				future++;
			}
			// Never further behind the newest stamp than MAX_LATE_MS (a clock put back counts too).
			createdMs = Math.max(createdMs, Math.min(maxStampMs, bankAt(atMs)) - MAX_LATE_MS);
			if (createdMs <= bankAt(atMs) + 1000) maxStampMs = Math.max(maxStampMs, createdMs);
			write(atMs, kind, createdMs, newStatus(kind));
		}
		if (chance(long ? 0.1 : 0.06)) {
			const atMs = minute + int(0, 59_999);
			const createdMs = Math.floor(bankAt(atMs) / 1000) * 1000;
			const kind = newKind();
			const many = int(2, long ? 400 : 40);
			for (let i = 0; i < many; i++) write(atMs, kind, createdMs, newStatus(kind));
			maxStampMs = Math.max(maxStampMs, createdMs);
			bursts++;
		}
	}
	if (late + future + bursts > 0) note(`late ${late} future ${future} bursts ${bursts}`);
	writes.sort((a, b) => a.atMs - b.atMs);
	let id = 0;
	for (const w of writes) if ('create' in w) w.create.id = ++id;
	return { seed, shape, order, pageCap, pageOffsets, quotaPerMinute, statusFailRate, settings, budgetMs, latencyMs, offset0Ms, driftPerMs, startMs, polls, writes, random: prng(seed ^ 0x5eed), features };
}

/** The bank's clock at n8n's `ms`. */
export const bankClock = (h: History, ms: number) => ms + h.offset0Ms + h.driftPerMs * Math.max(0, ms - h.startMs);
