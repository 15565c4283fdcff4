/**
 * The ledger check: what the trigger emitted against what the bank wrote, each violation named by the rule of
 * docs/polling.md it breaks. The promises (and where the docs promise nothing, nothing is checked):
 *
 * - Without Start From the first poll only notes where the bank stands: records written before the poll that
 *   started a stream's place are history, never emitted ("history emitted"), reversals of them included ("Transfers
 *   listed before the trigger started are not reported"); a transfer pending then is watched and its outcome
 *   emitted. With Start From, records stamped from then on are emitted too (a backfill).
 * - Records written during that first poll (or a transfer pending at its start and final by its end), and
 *   records written after it but stamped before the bank's clock at it (before Start From, with it), are neither
 *   promised nor forbidden: "records older than what it remembers are taken for history". Only "at most once"
 *   holds for them.
 * - Every other record of a stream is emitted once ("emitted twice", "missing after the drain"): collections; a
 *   transfer's outcome once final ("pending transfer's outcome not emitted"); a transfer that failed after it was
 *   successful (a reversal, within 24 h) as Transfer Failed ("reversal not reported"). No outcome the bank never
 *   gave ("outcome not in the ledger"), no record the list does not hold, no event not selected.
 * - Records written late (stamped up to MAX_LATE_MS, 10 min, behind the newest stamp of their list: inside the
 *   15 min overlap, "found when it lands within the last 15 minutes") and records stamped up to an hour ahead ("the
 *   records listed below it are found the same way") are owed like any other. Beyond the overlap the docs promise
 *   nothing, and the histories hold nothing of the kind (history.ts).
 * - Order, per list, for records listed with a final status (and no 83 to their status look-up: such a transfer
 *   "stays pending", re-checked later): oldest (created_at) first within a poll ("out of order within a poll"),
 *   and a record listed before a newer one was emitted comes no later than that poll ("older record listed
 *   before a newer one was emitted came later"), except a record written late, which may be one poll late ("a
 *   poll late at worst").
 * - "Missing" means: not emitted by the end of a drain of polls without faults after the history (no down-time,
 *   restart, quota or 83; the bank writes nothing more), of at most DRAIN_BASE polls + 4 per page of records still
 *   to come + 2 per transfer outcome still to come (each costs a status look-up, and at the minimum Requests per
 *   Poll a poll may have one to spare), ended 3 polls after the last expected event. A stream whose start
 *   first held in the drain (its starts ran out of requests while the faults lasted) owes from that poll: the
 *   bound is counted again from there.
 */
import type { EventKind } from '../../../nodes/common/events';
import type { StreamName } from '../../../nodes/BaasPollTrigger/events';
import type { BankRecord, Status } from './bank';
import type { History } from './history';
import { bankClock } from './history';

export const RULES = [
	'emitted twice',
	'missing after the drain',
	'pending transfer\'s outcome not emitted',
	'reversal not reported',
	'history emitted',
	'outcome not in the ledger',
	'a record the list does not hold',
	'event not selected',
	'out of order within a poll',
	'older record listed before a newer one was emitted came later',
] as const;
export type Rule = (typeof RULES)[number];
/** The outcome of a transfer pending when the trigger started (or made pending after it) never came. */
export const PENDING_RULE: Rule = "pending transfer's outcome not emitted";

export interface Violation {
	rule: Rule;
	detail: string;
	/** The record an owed event was never emitted for, so counts need not parse `detail`. */
	reference?: string;
}

export interface Emission {
	kind: EventKind;
	reference: string;
}

export interface PollRecord {
	startMs: number;
	endMs: number;
	emitted: Emission[];
}

/** n8n's clock at the start and end of the poll that started a stream's place (the one its saved state keeps). */
export type Activations = Partial<Record<StreamName, { startMs: number; endMs: number }>>;

export const DRAIN_BASE = 60;
const streamOf = (r: BankRecord): StreamName => (r.kind === 'collection' ? 'collections' : 'transfers');

interface Entry {
	record: BankRecord;
	writtenMs: number;
	/** Statuses with the n8n time they became visible, the creation's first. */
	timeline: { atMs: number; status: Status }[];
	/** Stamped behind the newest (not future) stamp of its list when written. */
	late: boolean;
}

export class Ledger {
	readonly entries = new Map<string, Entry>();

	/** `untilMs`: the end of the history; later writes never happen (the drain's bank writes nothing). */
	constructor(
		private readonly h: History,
		untilMs: number,
	) {
		const newest: Partial<Record<StreamName, number>> = {};
		for (const w of h.writes) {
			if (w.atMs > untilMs) break;
			if ('create' in w) {
				const record = w.create as BankRecord;
				const s = streamOf(record);
				const late = record.createdMs < (newest[s] ?? -Infinity);
				if (record.createdMs <= bankClock(h, w.atMs) + 1000) newest[s] = Math.max(newest[s] ?? -Infinity, record.createdMs);
				this.entries.set(record.reference, { record, writtenMs: w.atMs, timeline: [{ atMs: w.atMs, status: record.status }], late });
			} else this.entries.get(w.update.reference)?.timeline.push({ atMs: w.atMs, status: w.update.status });
		}
	}

	private listed(e: Entry): boolean {
		return e.record.malformed === undefined && (this.h.settings.accountNumber === undefined || this.h.settings.accountNumber === e.record.account);
	}

	/** Whether the transfer `reference` was pending (as the bank listed it) at n8n's time `ms`. */
	pendingAt(reference: string, ms: number): boolean {
		const e = this.entries.get(reference);
		return e !== undefined && this.statusAt(e, ms) === 'pending';
	}

	private statusAt(e: Entry, ms: number): Status {
		let status = e.timeline[0].status;
		for (const t of e.timeline) if (t.atMs <= ms) status = t.status;
		return status;
	}

	/** new: promised; pendingAtStart: its outcome promised; history: forbidden; unsure: at most once. */
	classOf(e: Entry, activations: Activations): 'new' | 'pendingAtStart' | 'history' | 'unsure' {
		const a = activations[streamOf(e.record)];
		if (a === undefined) return 'unsure';
		const from = this.h.settings.startFromMs;
		if (e.writtenMs <= a.startMs) {
			if (from !== undefined && e.record.createdMs >= from) return 'new';
			if (e.record.kind !== 'transfer' || this.statusAt(e, a.startMs) !== 'pending') return 'history';
			// Final during that poll: whether it saw the transfer pending depends on when it read the pending list.
			return this.statusAt(e, a.endMs) === 'pending' ? 'pendingAtStart' : 'unsure';
		}
		if (e.writtenMs <= a.endMs) return 'unsure';
		return e.record.createdMs < (from ?? bankClock(this.h, a.startMs)) ? 'unsure' : 'new';
	}

	/** The events owed, with the rule their absence breaks. */
	owed(activations: Activations): Map<string, Rule> {
		const owed = new Map<string, Rule>();
		const selected = this.h.settings.events;
		for (const e of this.entries.values()) {
			if (!this.listed(e)) continue;
			const cls = this.classOf(e, activations);
			if (cls !== 'new' && cls !== 'pendingAtStart') continue;
			const ref = e.record.reference;
			if (e.record.kind === 'collection') {
				if (selected.includes('COLLECTION_SUCCESS')) owed.set(`${ref}|COLLECTION_SUCCESS`, 'missing after the drain');
				continue;
			}
			const final = e.timeline[e.timeline.length - 1].status;
			const everSuccess = e.timeline.some((t) => t.status === 'success');
			const wasPending = e.timeline[0].status === 'pending' || cls === 'pendingAtStart';
			if (final === 'success' && selected.includes('TRANSFER_SUCCESS')) {
				owed.set(`${ref}|TRANSFER_SUCCESS`, wasPending ? PENDING_RULE : 'missing after the drain');
			}
			// A reversal of a transfer pending when the trigger started: "listed before the trigger started", not promised.
			if (final === 'failed' && selected.includes('TRANSFER_FAILED') && !(cls === 'pendingAtStart' && everSuccess)) {
				owed.set(`${ref}|TRANSFER_FAILED`, everSuccess ? 'reversal not reported' : wasPending ? PENDING_RULE : 'missing after the drain');
			}
		}
		return owed;
	}

	/** Whether an event of this kind for this record was the ledger's by the end of the poll. */
	private inLedger(e: Entry, kind: EventKind, byMs: number): boolean {
		const wanted: Status = kind === 'TRANSFER_FAILED' ? 'failed' : 'success';
		if ((kind === 'COLLECTION_SUCCESS') !== (e.record.kind === 'collection')) return false;
		return e.timeline.some((t) => t.atMs <= byMs && t.status === wanted);
	}

	/** `refused`: transfers whose status look-up was answered 83 (watched as pending since: no order promised). */
	check(polls: PollRecord[], activations: Activations, refused: ReadonlySet<string> = new Set()): Violation[] {
		const out: Violation[] = [];
		const seen = new Map<string, number>();
		const firstPoll = new Map<string, number>();
		polls.forEach((poll, p) => {
			for (const { kind, reference } of poll.emitted) {
				const key = `${reference}|${kind}`;
				seen.set(key, (seen.get(key) ?? 0) + 1);
				if (seen.get(key) === 2) out.push({ rule: 'emitted twice', detail: `${key} again at poll ${p}` });
				if (!firstPoll.has(reference)) firstPoll.set(reference, p);
				const e = this.entries.get(reference);
				if (!this.h.settings.events.includes(kind)) out.push({ rule: 'event not selected', detail: `${key} at poll ${p}` });
				if (e === undefined || !this.listed(e) || e.writtenMs > poll.endMs) out.push({ rule: 'a record the list does not hold', detail: `${key} at poll ${p}` });
				else if (this.classOf(e, activations) === 'history') out.push({ rule: 'history emitted', detail: `${key} at poll ${p} (written ${ago(e.writtenMs, poll.startMs)} before it)` });
				else if (!this.inLedger(e, kind, poll.endMs)) out.push({ rule: 'outcome not in the ledger', detail: `${key} at poll ${p}: the bank said ${this.statusAt(e, poll.endMs)}` });
			}
		});
		for (const [key, rule] of this.owed(activations)) {
			if (!seen.has(key)) {
				const reference = key.split('|')[0];
				const e = this.entries.get(reference) as Entry;
				out.push({ rule, reference, detail: `${key} (written at ${iso(e.writtenMs)}, stamped ${iso(e.record.createdMs)}${e.late ? ', late' : ''})` });
			}
		}
		out.push(...this.order(polls, firstPoll, activations, refused));
		return out;
	}

	/** Records listed final when written, of a selected event, that the order promises cover. */
	private ordered(e: Entry, activations: Activations, refused: ReadonlySet<string>): boolean {
		if (!this.listed(e) || refused.has(e.record.reference) || this.classOf(e, activations) !== 'new' || e.timeline[0].status === 'pending') return false;
		const kind: EventKind = e.record.kind === 'collection' ? 'COLLECTION_SUCCESS' : e.timeline[0].status === 'success' ? 'TRANSFER_SUCCESS' : 'TRANSFER_FAILED';
		return this.h.settings.events.includes(kind);
	}

	/**
	 * Where a record stands in its list's order, newest highest: its created_at for a bank that lists by it, else the
	 * order the bank recorded it in (the trigger follows the list; it cannot know another order).
	 */
	private listKey(record: BankRecord): number {
		return this.h.order === 'recorded' ? record.id : record.createdMs;
	}

	private order(polls: PollRecord[], firstPoll: Map<string, number>, activations: Activations, refused: ReadonlySet<string>): Violation[] {
		const out: Violation[] = [];
		// Per stream and poll: the newest ordered record emitted.
		const newestAt: Record<StreamName, { key: number; ref: string }[]> = { collections: [], transfers: [] };
		polls.forEach((poll, p) => {
			const last: Partial<Record<StreamName, BankRecord>> = {};
			for (const { reference } of poll.emitted) {
				const e = this.entries.get(reference);
				if (e === undefined || firstPoll.get(reference) !== p || !this.ordered(e, activations, refused)) continue;
				const s = streamOf(e.record);
				const before = last[s];
				if (before !== undefined && before.createdMs > e.record.createdMs) {
					out.push({ rule: 'out of order within a poll', detail: `${reference} (${iso(e.record.createdMs)}) after ${before.reference} (${iso(before.createdMs)}) at poll ${p}` });
				}
				last[s] = before !== undefined && before.createdMs > e.record.createdMs ? before : e.record;
				const key = this.listKey(e.record);
				if (newestAt[s][p] === undefined || newestAt[s][p].key < key) newestAt[s][p] = { key, ref: reference };
			}
		});
		for (const e of this.entries.values()) {
			const j = firstPoll.get(e.record.reference);
			if (j === undefined || !this.ordered(e, activations, refused)) continue;
			const s = streamOf(e.record);
			const allowed = e.late ? j - 1 : j;
			for (let k = 0; k < allowed; k++) {
				const newer = newestAt[s][k];
				if (newer !== undefined && newer.key > this.listKey(e.record) && e.writtenMs <= polls[k].startMs) {
					out.push({ rule: 'older record listed before a newer one was emitted came later', detail: `${e.record.reference}${e.late ? ' (late)' : ''} at poll ${j}, listed when poll ${k} emitted ${newer.ref}` });
					break;
				}
			}
		}
		return out;
	}
}

const iso = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const ago = (ms: number, nowMs: number) => `${Math.round((nowMs - ms) / 1000)} s`;
