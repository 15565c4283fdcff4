/**
 * The oracle of the Poll Trigger's black-box tests (issue 26), judged from the bank's own records and what the
 * trigger emitted, never from the trigger's state:
 * - every event the bank holds once the trigger is active is emitted exactly once, and nothing else;
 * - within one stream (collections; transfer outcomes) oldest first: ascending created_at, records of one instant
 *   in the bank's list order read from the bottom (the one listed last first) — except (a) a record the bank
 *   wrote late: one that was not yet there when something it should precede was emitted, and (b) a transfer
 *   whose outcome became final later (it was pending at the start of a poll) or a reversal. Those are emitted
 *   when found: (b) is not ordered at all, (a) only against what was emitted once it was there.
 * "There" is judged at the start of each poll: the events the bank's records stand for at that moment.
 * A bank that lists records in the order it recorded them, not by created_at (listOrder 'recorded'), can only be
 * followed in that order: there "oldest first" is the bank's list order from one poll to the next, and the
 * events of one poll (which the trigger sorts by created_at) are not ordered against each other.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SandboxHandle } from '../../../sandbox';
import type { Transaction } from '../../../sandbox/state/records';

export const ALL_EVENTS = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'];

type StreamName = 'collections' | 'transfers';

const streamOf = (event: string): StreamName => (event === 'COLLECTION_SUCCESS' ? 'collections' : 'transfers');

/** The event a bank record stands for now, if any (a failed collection stands for none, as the webhook sends none). */
function eventOf(t: Transaction): string | undefined {
	if (t.type === 'credit' && t.category === 'collection') return t.status === 'success' ? 'COLLECTION_SUCCESS' : undefined;
	if (t.type === 'debit' && t.category === 'transfer') {
		if (t.status === 'success') return 'TRANSFER_SUCCESS';
		if (t.status === 'failed') return 'TRANSFER_FAILED';
	}
	return undefined;
}

/** `event:reference` of each emitted item (Whole Event output). */
export const keysOf = (json: IDataObject[]) =>
	json.map((item) => `${String(item.event)}:${String(((item.data ?? {}) as IDataObject).reference_number)}`);

export interface Verdict {
	expected: number;
	emitted: number;
	missing: string[];
	repeated: string[];
	unexpected: string[];
	/** Events emitted after one they should have preceded, each with the first such event. */
	outOfOrder: Array<{ key: string; after: string }>;
}

/** The verdict's counts, for reportFigures. */
export const figuresOf = (v: Verdict) => ({ expected: v.expected, emitted: v.emitted, ...findingsOf(v) });

export class EventOracle {
	/** References of the records the bank held when the trigger was activated: history, not expected. */
	private readonly history = new Set<string>();
	/** Each event the bank came to hold, and the first poll that started with it there. */
	private readonly availableAt = new Map<string, number>();
	/** Transfers seen pending at the start of a poll, and reversals: emitted when found, in no order. */
	private readonly unordered = new Set<string>();
	private readonly emissions: Array<{ key: string; poll: number }> = [];
	private poll = 0;

	constructor(
		private readonly bank: SandboxHandle,
		private readonly events: string[] = ALL_EVENTS,
	) {
		for (const t of this.mine()) this.history.add(t.reference);
	}

	private mine(): Transaction[] {
		const id = this.bank.bank.main.id;
		return this.bank.bank.transactions.filter((t) => t.businessId === id);
	}

	/** Call before each poll: notes the events the bank holds now. */
	beforePoll(): void {
		this.poll++;
		const malformed = this.bank.bank.malformed;
		for (const t of this.mine()) {
			if (this.history.has(t.reference) || malformed.has(t.reference)) continue;
			if (t.type === 'debit' && t.category === 'transfer' && t.status === 'pending') {
				for (const event of ['TRANSFER_SUCCESS', 'TRANSFER_FAILED']) this.unordered.add(`${event}:${t.reference}`);
			}
			const event = eventOf(t);
			if (event === undefined || !this.events.includes(event)) continue;
			const key = `${event}:${t.reference}`;
			if (this.availableAt.has(key)) continue;
			this.availableAt.set(key, this.poll);
			if (event === 'TRANSFER_FAILED' && this.availableAt.has(`TRANSFER_SUCCESS:${t.reference}`)) this.unordered.add(key);
		}
	}

	/** What the poll begun by the last beforePoll emitted. */
	record(json: IDataObject[]): void {
		for (const key of keysOf(json)) this.emissions.push({ key, poll: this.poll });
	}

	/** Emitted keys so far, in order. */
	emitted(): string[] {
		return this.emissions.map((e) => e.key);
	}

	/** Expected keys not emitted yet. */
	outstanding(): string[] {
		const seen = new Set(this.emitted());
		return [...this.availableAt.keys()].filter((key) => !seen.has(key));
	}

	/** Whether `key` has been emitted. */
	has(key: string): boolean {
		return this.emissions.some((e) => e.key === key);
	}

	/**
	 * Ranks of the expected events of each stream: ascending created_at, ties in the bank's list order from the
	 * bottom; for a bank listing in recorded order, the order it recorded them.
	 */
	private ranks(): Map<string, number> {
		const bank = this.bank.bank;
		const recorded = this.bank.config().listOrder === 'recorded';
		const written = new Map(bank.transactionLedger.written.map((t, i) => [t, i]));
		const byReference = new Map(this.mine().map((t) => [t.reference, t]));
		const records = [...this.availableAt.keys()].map((key) => ({ key, t: byReference.get(key.slice(key.indexOf(':') + 1)) as Transaction }));
		records.sort((a, b) => {
			if (recorded) return (written.get(a.t) as number) - (written.get(b.t) as number);
			if (a.t.createdAtMs !== b.t.createdAtMs) return a.t.createdAtMs - b.t.createdAtMs;
			return a.t.id < b.t.id ? -1 : a.t.id > b.t.id ? 1 : 0;
		});
		return new Map(records.map((r, i) => [r.key, i]));
	}

	check(): Verdict {
		const expected = new Set(this.availableAt.keys());
		const counts = new Map<string, number>();
		for (const { key } of this.emissions) counts.set(key, (counts.get(key) ?? 0) + 1);
		const rank = this.ranks();
		const recorded = this.bank.config().listOrder === 'recorded';
		const outOfOrder: Verdict['outOfOrder'] = [];
		// Per stream: the highest-ranked event each poll emitted, and the current poll's running highest.
		const streams = new Map<StreamName, { pollMax: Map<number, { rank: number; key: string }> }>();
		for (const { key, poll } of this.emissions) {
			const r = rank.get(key);
			if (r === undefined || this.unordered.has(key)) continue;
			const stream = streams.get(streamOf(key.split(':')[0])) ?? { pollMax: new Map() };
			streams.set(streamOf(key.split(':')[0]), stream);
			const since = this.availableAt.get(key) as number;
			// An event emitted before this one, in a poll that started with this one already there, ranked above it.
			let worst: { rank: number; key: string } | undefined;
			for (let p = since; p <= (recorded ? poll - 1 : poll); p++) {
				const m = stream.pollMax.get(p);
				if (m !== undefined && m.rank > r && (worst === undefined || m.rank > worst.rank)) worst = m;
			}
			if (worst !== undefined) outOfOrder.push({ key, after: worst.key });
			const mine = stream.pollMax.get(poll);
			if (mine === undefined || r > mine.rank) stream.pollMax.set(poll, { rank: r, key });
		}
		return {
			expected: expected.size,
			emitted: this.emissions.length,
			missing: [...expected].filter((key) => !counts.has(key)),
			repeated: [...counts].filter(([, n]) => n > 1).map(([key]) => key),
			unexpected: [...counts.keys()].filter((key) => !expected.has(key)),
			outOfOrder,
		};
	}
}

/** A verdict in a few lines: the counts and the first few keys of each finding. */
export function describeVerdict(v: Verdict): string {
	const few = (keys: string[]) => (keys.length === 0 ? '' : ` (${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''})`);
	return [
		`expected ${v.expected}, emitted ${v.emitted}`,
		`missing ${v.missing.length}${few(v.missing)}`,
		`repeated ${v.repeated.length}${few(v.repeated)}`,
		`unexpected ${v.unexpected.length}${few(v.unexpected)}`,
		`out of order ${v.outOfOrder.length}${few(v.outOfOrder.map((o) => `${o.key} after ${o.after}`))}`,
	].join('; ');
}

/** What the oracle found wrong, as counts: a test expects NOTHING_WRONG. */
export const findingsOf = (v: Verdict) => ({
	missing: v.missing.length,
	repeated: v.repeated.length,
	unexpected: v.unexpected.length,
	out_of_order: v.outOfOrder.length,
});
export const NOTHING_WRONG = { missing: 0, repeated: 0, unexpected: 0, out_of_order: 0 };
