/**
 * The words of the Poll Trigger's core: what one list's follower keeps between polls (ListState), a page of the
 * bank's list as read (Page), and how the core talks to the poll around it. The core makes no request and reads
 * no clock: it asks for what it needs (a page, or records to hand on) and is stepped with the answer (core/run.ts,
 * stepList), so the poll (poll.ts) decides what is read within Requests per Poll and its time, and a fuzz test can
 * drive it against a model bank with no engine around it.
 */
import type { Memory, Slot } from './memory';
import type { Window } from './windows';

/** What the trigger learned of how the bank pages a list. */
export interface Paging {
	/** The largest page to ask for: the trigger's page size, or less once the bank showed it serves no more. */
	cap: number;
	/** The most records the bank served in one page of this list so far: a page shorter than that is the end. */
	served: number;
	/** When a learned cap is given up and full pages are asked for again (n8n's clock, ms). */
	capUntilMs?: number;
	/**
	 * A page showed a record listed under one stamped before it: the bank does not list by created_at but as it
	 * wrote records (newest written on top), so nothing is ever written under a record it lists (pages.ts).
	 */
	asWritten?: true;
}

export interface Page {
	window: Window;
	start: number;
	slots: Slot[];
	/** Fewer records than asked. */
	short: boolean;
}

/**
 * Where a record stood in the bank's list when a page of a check showed it: `span` ranks below `anchor`, a record then
 * in place above it (the deepest seen in place, else the mirror's first record). A fact about the list, true as long
 * as nothing is written between the two; the offset the check needs is worked out from it when used
 * (core/offsets.ts), whatever the mirror took in since.
 */
export interface Seen {
	reference: string;
	anchor: string;
	span: number;
}

/**
 * Where a check for records written late stands. The offset of a mirrored record is how many ranks deeper the bank
 * lists it than the mirror has it: records written late above it (0: in place). Offsets grow with depth; the check
 * finds where they last grow (the deepest stretch of late records) first, so what it hands on comes oldest first.
 */
export interface CheckProgress {
	/** The deepest record seen in place. */
	good?: string;
	/** A record seen at the offset of the deepest mirrored record: the deepest stretch lies above it. */
	bad?: Seen;
	/** A record seen at a smaller offset than `bad`'s: the deepest stretch lies below it. */
	shallow?: Seen;
}

/** One list's follower between polls: saved in the node's static data (state.ts). */
export interface ListState {
	memory: Memory;
	/** Rank of the mirror's first entry as last read; 0: up to the newest record; null: the place must be searched for. */
	lag: number | null;
	/** While searching: a rank the place is known to lie at or below. */
	searchFrom?: number;
	/** While searching: a rank it was seen to lie above (records written since may have pushed it further). */
	searchTo?: number;
	/** While searching: the bounds met on nothing once, and the search started again from `searchBase`. */
	searchMet?: boolean;
	/**
	 * While searching: the rank the place was last read at when the search began (or a rank it was known to lie at or
	 * below). Records are written, not removed, so it never rises above it: the second round steps down from here.
	 */
	searchBase?: number;
	/**
	 * While searching: the rank right above a run of pages of malformed entries only, walked up from a probe (at or
	 * below `searchFrom`); or, with nothing mirrored, seen ending the list at `searchFrom` (above it: search.ts,
	 * takeAboveEnd).
	 */
	searchAbove?: number;
	/**
	 * Records created before this are history (bank clock, ms); null: every record counts. It also tells the check
	 * where history lies (core/below.ts), even while `unseenIsNew` holds; a search, only where it bounds news.
	 */
	floorMs: number | null;
	/**
	 * The start read the whole list, so every record not in `seen` is news whatever its created_at (a lone record
	 * stamped in the bank's future set a floor ahead of everything after it), until the memory forgets a record.
	 */
	unseenIsNew?: true;
	paging: Paging;
	/**
	 * How many records the bank wrote above the place between the last two polls, as the first page of the last
	 * poll showed; undefined when it did not show it. The first page of the next poll leaves that much room (twice
	 * over) below the place rather than half a page, so a backlog is read the faster the quieter the list's top.
	 */
	grewBy?: number;
	/**
	 * What the last check saw right below the mirror's deepest record (`deepest`): a record older than the floor
	 * (`reference`; the floor it was judged by only rises), or the list's end (none). Found there again, at its rank,
	 * in the poll's place, it shows in one request what the check's first two show: nothing was written behind the
	 * place (core/below.ts, `sentinelHolds`).
	 */
	belowDeepest?: { deepest: string; reference?: string };
	/** A check for records written late that ran out of requests: the next poll goes on from there, so it ends. */
	check?: CheckProgress;
	/**
	 * Polls in a row that held a page for their check and could not hand all of it on (too few requests). After
	 * MAX_HELD_POLLS of them (follow.ts) a poll hands records on without waiting: never stuck.
	 */
	heldPolls?: number;
	/**
	 * The last poll that held new records for the check gave it no page to read (no request was left for it): a poll
	 * with none left either hands them on rather than hold them again (take.ts).
	 */
	checkStarved?: true;
}

/**
 * What a request of the core is for: finding the place, checking behind it for records written late, or climbing
 * what lies above it (a backlog). The poll serves every list's place first, then checks, then climbs.
 */
export type Need = 'place' | 'check' | 'climb';

/**
 * One list's phase in one poll (ListFollower.phase), in the order they come; a list never goes back to an earlier
 * one in the same poll. 'place': reading the page that should show the place (saved from an earlier poll; records
 * may have been written above it since). 'climb': the place is known; reading what lies above it, or searching
 * again after the place moved down. 'check': looking behind the place for records written late (once a poll).
 * 'checkPaused': the check could go no further in this poll (it goes on at the next, ListState.check); climbing.
 * 'checked': the check ended (nothing behind the place is left for a later poll); climbing. 'stopped': a record
 * could not be handed on (no request left for its look-up, or the bank failed): the list does no more in this poll,
 * from whichever phase it was in.
 */
export type Phase = 'place' | 'climb' | 'check' | 'checkPaused' | 'checked' | 'stopped';
export const PHASES: readonly Phase[] = ['place', 'climb', 'check', 'checkPaused', 'checked', 'stopped'];

/** What the pages a list asks for in `phase` are for (a stopped list's are not read: drive.ts). */
export const needOf = (phase: Phase): Need => (phase === 'place' || phase === 'check' ? phase : 'climb');

/**
 * What the core asks of the poll: a page of its list (`atLeast`: only when that many requests are left for it, or
 * not at all), or records to hand on, oldest first (answered with how many were handed on: a prefix).
 */
export type CoreRequest = { kind: 'read'; window: Window; need: Need; atLeast?: number } | { kind: 'handOn'; slots: Slot[] };

/** The page read, or how many records were handed on. */
export type CoreAnswer = Page | number;

export interface FollowOptions {
	/** n8n's clock (ms): only for how long a learned page cap is kept. */
	nowMs: number;
	/** Records are handed on oldest first (a list of reversals is not: their events are not ordered). */
	ordered: boolean;
	/**
	 * The list gains records as the bank changes their status, not only as it writes them (the failed transfers: a
	 * reversal joins it under records it listed before), so a record under handled ones is not told to be history by
	 * the order the bank lists in (Paging.asWritten).
	 */
	gainsByStatus?: boolean;
	/** Requests this list may still make in this poll (the poll's share for it). */
	requestsLeft: () => number;
	/** The most records the bank served in one page of any list (its page size is the bank's, not a list's). */
	bank: { served: number };
	/** Requests handing `slot` on may take (a transfer's status look-up); none when not given. */
	costOf?: (slot: Slot) => number;
}
