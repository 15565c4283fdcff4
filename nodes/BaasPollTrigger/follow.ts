/**
 * Follows one list of the bank from where the trigger stands up to its newest record, one page per step, and
 * hands on each record not handled before, oldest first. What it holds (ListState) is saved between polls.
 *
 * - The place: `lag`, the rank of the mirror's first entry (the newest record handled) in the bank's list. 0: the
 *   trigger had read up to the newest record. A backlog (n8n was down, a burst) is read upward from the place:
 *   each page is chosen (windows.ts) so that the place falls near its bottom, and the records above it in the page
 *   are handed on, oldest first; the newest of them becomes the place. Records the bank writes meanwhile at the
 *   top only push the place down; the page that shows it says by how much.
 * - When a page does not show the place (more records were written than the page had room for), it is searched
 *   for: pages further down until one is below it, then halving; created_at says which way to go.
 * - Records the bank writes late (behind the place): the mirror says how many records lie between the newest and
 *   the oldest record of the look-back window; a page showing that oldest record at another rank says records were
 *   written (or removed) in between, and halving finds the deepest stretch of them first (lookForLateRecords).
 *   They are older than anything above the place, so a page that would hand records on waits for that check (held).
 */
import type { Memory, Slot } from './memory';
import { belowOf, firstValid, MALFORMED, readAgainst, takeIn } from './memory';
import type { ListReader, Page, Paging } from './reader';
import { showsAgain } from './reader';
import type { Window } from './windows';
import { startOf, windowFor, windowHolding } from './windows';

export interface ListState {
	memory: Memory;
	/** Rank of the mirror's first entry as last read; 0: up to the newest record; null: the place must be searched for. */
	lag: number | null;
	/** While searching: a rank the place is known to lie at or below. */
	searchFrom?: number;
	/** While searching: a rank it was seen to lie above (records written since may have pushed it further). */
	searchTo?: number;
	/** While searching: the bounds met on nothing once, and the search started again from the top. */
	searchMet?: boolean;
	/** Records created before this are history (bank clock, ms); null: every record counts. */
	floorMs: number | null;
	paging: Paging;
	/**
	 * How many records the bank wrote above the place between the last two polls, as the first page of the last
	 * poll showed; undefined when it did not show it. The first page of the next poll leaves that much room (twice
	 * over) below the place rather than half a page, so a backlog is read the faster the quieter the list's top.
	 */
	grewBy?: number;
	/** A check for records written late that ran out of requests: the next poll goes on from there, so it ends. */
	check?: CheckProgress;
	/**
	 * Polls in a row that held a page for their check and could not hand all of it on (too few requests). After
	 * MAX_HELD_POLLS of them a poll hands records on without waiting: a small Requests per Poll makes records late
	 * by a few polls at worst, never stuck.
	 */
	heldPolls?: number;
}

/**
 * Where a check for records written late stands. The offset of a mirrored record is how many ranks deeper the bank
 * lists it than the mirror has it: records written late above it (0: in place). Offsets grow with depth; the check
 * finds where they last grow (the deepest stretch of late records) first, so what it hands on comes oldest first.
 */
export interface CheckProgress {
	/** The deepest record seen in place. */
	good?: string;
	/** A record seen at `offset`, the offset of the deepest mirrored record: the deepest stretch lies above it. */
	bad?: string;
	offset?: number;
	/** A record seen at `shallowOffset`, less than `offset`: the deepest stretch lies below it. */
	shallow?: string;
	shallowOffset?: number;
}

/** Hands on one record; throws when it cannot (the poll is out of requests), which stops the reading there. */
export type Handle = (slot: Slot) => Promise<void>;
/** Sees every page read (records already handled included). */
export type Observe = (slots: Slot[]) => void;

/** Records between the place and the bottom of a page first read in a poll: room for what was written since. */
const TOP_SLACK = 2;
/** Polls in a row a list's new records may wait for a check that cannot end for lack of requests. */
const MAX_HELD_POLLS = 2;
/** Halving steps at most in one check for records written late. */
const MAX_VERIFY_ROUNDS = 16;
/** How long a cap learned from the bank is kept before full pages are asked for again. */
export const CAP_HOLD_MS = 24 * 3_600_000;

type Taken = { outcome: 'placed' | 'unplaced' | 'capped'; page: Page; endsList: boolean };

export class ListFollower {
	/** The place comes from an earlier poll: records may have been written above it since. */
	private stale = true;
	/** Records between the place and a page's bottom: grows with what the bank writes between two reads. */
	private slack = TOP_SLACK;
	private probes = 0;
	/** A search left unfinished by an earlier poll: it goes on galloping rather than page by page. */
	private readonly resumed: boolean;
	/** Mirror entries 0 … verifiedTo were seen at their ranks by the last read that placed the trigger. */
	private verifiedTo = -1;
	/** The last page read to place the trigger. */
	private placedPage?: { page: Page; endsList: boolean };
	/**
	 * That page showed the mirror's first record, so the place was measured. A page showing only deeper mirrored
	 * records gives the place by assuming nothing was written between them and it: a check against that would find
	 * what it assumed.
	 */
	private placeMeasured = false;
	/** Checks for records written late in this poll. */
	private checks = 0;
	/** A check ran and the place has not moved since: another would read the same pages. */
	private checkedInPlace = false;
	/**
	 * A check for records written late ended in this poll: the stretch behind the place was looked through, so what
	 * is older than the overlap may be forgotten (poll.ts). Until then nothing is, or a record written late there
	 * would fall below the floor unseen.
	 */
	checked = false;
	/**
	 * A check for records written late ended in this poll (or can go no further in it): records above the place may
	 * be handed on.
	 */
	private mayHandOn = false;
	/**
	 * A page that placed the trigger in this poll, its new records not handed on until the check for records written
	 * late has ended: what that check finds lies behind the place, older than they are.
	 */
	private held?: { window: Window; page: Page; extend: boolean };
	/** Polls in a row before this one that could not hand on the page they held (ListState.heldPolls). */
	private readonly heldBefore: number;

	constructor(
		readonly state: ListState,
		private readonly reader: ListReader,
		private readonly handle: Handle,
		private readonly nowMs: number,
		private readonly observe: Observe = () => undefined,
		/** Records are handed on oldest first (a list of reversals is not: their events are not ordered). */
		ordered = true,
	) {
		this.resumed = state.lag === null && (state.searchFrom ?? 0) > 0;
		this.heldBefore = state.heldPolls ?? 0;
		this.mayHandOn = !ordered || this.heldBefore >= MAX_HELD_POLLS;
		if (this.mayHandOn) state.heldPolls = undefined;
	}

	/** Read up to the bank's newest record in this poll. */
	get caughtUp(): boolean {
		return !this.stale && this.state.lag === 0 && this.held === undefined;
	}

	/** New records wait for a check for records written late that cannot go on in this poll. */
	get waiting(): boolean {
		return this.held !== undefined;
	}

	/**
	 * One page toward the newest record. Once the place is known in a poll, records written late behind it are looked
	 * for first: they are older than the backlog above it.
	 */
	async step(): Promise<void> {
		await this.advance();
		if (this.checks === 0) await this.lookForLateRecords();
	}

	/** One page toward the newest record, without the check for records written late (poll.ts takes turns with it). */
	async advance(): Promise<void> {
		const { state } = this;
		if (this.held !== undefined) return await this.lookForLateRecords();
		this.checkedInPlace = false;
		if (firstValid(state.memory) === undefined && state.lag !== null) {
			// Nothing handled to stand on yet (or no record after the floor so far): look from the top again.
			state.lag = null;
			state.searchFrom = undefined;
			state.searchTo = undefined;
			state.searchMet = undefined;
		}
		if (state.lag === null) return await this.searchStep();
		const cap = this.reader.cap;
		// The page is placed around the newest handled record that is a record (a malformed entry can place nothing).
		const anchor = (firstValid(state.memory) as { index: number; reference: string }).index;
		const rank = state.lag + anchor;
		// The first page of a poll leaves room below the place for what was written above it since the last poll.
		const slack = this.stale ? this.firstSlack(cap) : this.slack;
		const window: Window = rank <= cap - 1 - slack ? { page: 1, size: cap } : windowFor(rank, cap, 'bottom', slack, anchor + 1);
		// No page holds the place and a record above it: two pages, when the poll can still make two requests.
		const across = state.lag > 0 && startOf(window) >= state.lag;
		if (across && this.reader.requestsLeft < 2) this.reader.giveUp();
		const taken = across ? await this.takeAcross(window) : await this.take(window);
		if (taken.outcome !== 'unplaced') return;
		// The place was not in the page: records written since pushed it further down (or it is gone).
		state.grewBy = undefined;
		state.lag = null;
		state.searchFrom = undefined;
		state.searchTo = undefined;
		state.searchMet = undefined;
		await this.judge(taken);
		if (state.lag === null) await this.searchStep();
	}

	/** Room below the place in the first page of a poll: for what the bank wrote above it since the last poll. */
	private firstSlack(cap: number): number {
		const half = Math.floor(cap / 2);
		const grewBy = this.state.grewBy;
		return grewBy === undefined ? Math.max(this.slack, half) : Math.max(this.slack, Math.min(half, TOP_SLACK + 2 * grewBy));
	}

	/** One page of the search for the place: below the last page known to be above it, then halving. */
	private async searchStep(): Promise<void> {
		const { state } = this;
		const cap = this.reader.cap;
		const lo = state.searchFrom ?? 0;
		if (state.searchTo !== undefined && state.searchTo <= lo) {
			state.searchTo = undefined;
			// Nothing mirrored, and the list ends at `lo`: a page reaching past that rank is placed by the end. With
			// nothing at all after the floor, the list is read up to its newest record.
			if (firstValid(state.memory) === undefined) {
				// (The page starts as low as it can and still hold the last record, so it reaches past the end.)
				if (lo > 0) await this.take(windowFor(lo - 1, cap, 'top', 0));
				else {
					state.lag = 0;
					state.searchFrom = undefined;
					this.stale = false;
				}
				return;
			}
			// The bounds met on nothing. Either bound may be wrong: an upper one from an earlier poll (records written
			// above since pushed the place below it), or a lower one from a page of records handled before that lay
			// below the place, not above it. The place is looked for once more from the top; meeting again, it is gone.
			if (state.searchMet === true) return this.lost();
			state.searchMet = true;
			state.searchFrom = undefined;
			return await this.searchStep();
		}
		let rank: number;
		if (state.searchTo === undefined) rank = this.probes === 0 && !this.resumed ? lo : Math.max(lo + cap, 2 * lo);
		else rank = lo + Math.max(0, Math.floor((state.searchTo - lo - cap) / 2));
		this.probes++;
		const taken = await this.take(windowFor(rank, cap, 'top', 0));
		if (taken.outcome === 'unplaced') await this.judge(taken);
	}

	/** Where the place lies against a page that did not show it. */
	private async judge(taken: Taken): Promise<void> {
		const { state } = this;
		const { page } = taken;
		const floorMs = state.floorMs;
		const times = page.slots.filter((slot) => slot.createdMs !== undefined).map((slot) => slot.createdMs as number);
		const end = page.start + page.slots.length;
		// A page of records not handled lies above the place (they are new), unless they are all history, older than
		// the floor (below it). created_at says no more: a bank may list out of created_at order.
		const fresh = page.slots.some((slot) => slot.reference !== undefined && !state.memory.seen.has(slot.reference) && (floorMs === null || (slot.createdMs as number) >= floorMs));
		let below: boolean;
		if (page.slots.length === 0) below = false;
		else if (floorMs !== null && times.length > 0 && times.every((ms) => ms < floorMs)) below = false;
		else below = true;
		// A short page may be where the list ends: then the place is not below it.
		const endsList = taken.endsList || (below && page.short && (await this.reader.endsList(page, this.nowMs, CAP_HOLD_MS)));
		if (below && endsList) {
			// Only records handled before (not mirrored: from above the place, or forgotten below it), and the list
			// ends here: the place lies above the page. New records with nothing below them: the place is gone.
			if (fresh) return this.lost();
			below = false;
		}
		if (below) state.searchFrom = Math.max(state.searchFrom ?? 0, end);
		else state.searchTo = Math.min(state.searchTo ?? Infinity, page.start);
	}

	/**
	 * The records the mirror holds are no longer listed where they must be (the bank removed them, or changed the
	 * list): the mirror starts afresh from the floor. `seen` stays, so nothing handled is handed on again, and the
	 * floor rises to the oldest record remembered, so older history does not come back as new.
	 */
	private lost(): void {
		const { state } = this;
		const remembered = [...state.memory.seen.values()];
		if (remembered.length > 0) state.floorMs = Math.max(state.floorMs ?? -Infinity, Math.min(...remembered));
		state.memory.mirror = [];
		state.lag = null;
		state.searchFrom = undefined;
		state.searchTo = undefined;
		state.searchMet = undefined;
	}

	/**
	 * When every page size up to the cap puts the place at the top of its page (the cap divides its rank), no page
	 * holds it with a record above: the page above is read, then the place's page. If the place is still at its
	 * rank, nothing was written above it between the two reads, and the two pages are read as one.
	 */
	private async takeAcross(window: Window): Promise<Taken> {
		const above = await this.reader.read({ page: window.page - 1, size: window.size });
		const page = await this.reader.read(window);
		const head = firstValid(this.state.memory);
		const at = head === undefined || this.state.lag === null ? -1 : this.state.lag + head.index - page.start;
		// The place where it stood before the first of the two reads: nothing was written above it in between.
		if (above.short || head === undefined || at < 0 || page.slots[at]?.reference !== head.reference) return await this.take(window, page);
		return await this.take({ page: 1, size: window.size }, { window, start: above.start, slots: [...above.slots, ...page.slots], short: page.short });
	}

	/**
	 * Reads one page (or takes one already read) and hands on what it places. A page read to find or move the place
	 * updates it; a page read to check what lies behind the place (`checking`) does not: where the place stands is
	 * then what is being checked.
	 */
	private async take(window: Window, read?: Page, checking = false, extend = true): Promise<Taken> {
		const { state } = this;
		const memory = state.memory;
		const page = read ?? (await this.reader.read(window));
		this.observe(page.slots);
		let reading = readAgainst(memory, page.slots, false, state.floorMs);
		let endsList = false;
		// A short page: whether the list ends there decides where its records lie (when anything depends on it).
		if (page.short && (reading.anchor === 'none' || reading.unplacedBelow)) {
			endsList = await this.reader.endsList(page, this.nowMs, CAP_HOLD_MS);
			if (!endsList && reading.anchor === 'none') return { outcome: 'capped', page, endsList };
			if (endsList) reading = readAgainst(memory, page.slots, true, state.floorMs);
		}
		// Placed only against handled records, or when it hands something on: an empty page past the list's end, or
		// a page of history, says only where not to look.
		if (reading.anchor === 'none' || (reading.anchor !== 'handled' && reading.deliver.length === 0)) return { outcome: 'unplaced', page, endsList };
		if (reading.unplacedBelow && !endsList && extend) {
			// New records below handled ones run on to the page's end: the next page may show a handled record below
			// them, which places them (read together as one page when nothing moved between the two reads).
			const joined = await this.withNextPage(page);
			if (joined !== undefined) return await this.take(window, joined, checking, false);
		}
		if (reading.unplacedBelow && !endsList) {
			// New records below handled ones run on past the page: older than everything new above them, they come
			// first. The place moves below them and the list is read upward from there (handled records are skipped).
			this.reopen(memory.mirror.length, page.start + page.slots.length, false);
			return { outcome: 'placed', page, endsList };
		}
		const first = firstValid(memory);
		const expectedHead = state.lag === null || first === undefined ? null : state.lag + first.index;
		const oldHead = first?.reference;
		if (!checking && !this.mayHandOn && first !== undefined && reading.deliver.length > 0 && this.reader.requestsLeft > 0) {
			// Records behind the place come first: this page only places the trigger until the check has ended (when
			// the poll has a request left for it).
			const { headPosition } = takeIn(memory, page.slots, reading, [], page.start === 0);
			if (!this.place(page, headPosition, expectedHead, oldHead, endsList)) return { outcome: 'unplaced', page, endsList };
			this.held = { window, page, extend };
			state.heldPolls = this.heldBefore + 1; // until all of it is handed on
			await this.lookForLateRecords();
			return { outcome: 'placed', page, endsList };
		}
		const handled: number[] = [];
		let failure: unknown;
		try {
			for (const position of reading.deliver) {
				await this.handle(page.slots[position]);
				handled.push(position);
			}
		} catch (error) {
			failure = error;
		}
		const { headPosition } = takeIn(memory, page.slots, reading, handled, page.start === 0);
		const placed = !checking || headPosition !== undefined ? this.place(page, headPosition, expectedHead, oldHead, endsList) : true;
		if (failure !== undefined) throw failure;
		// A page that handed nothing on and showed no mirrored record (only records remembered from above the place,
		// pushed into it by records written since) did not place the trigger: the place is looked for below it.
		if (!placed && handled.length === 0) return { outcome: 'unplaced', page, endsList };
		return { outcome: 'placed', page, endsList };
	}

	/**
	 * `page` and the page after it as one page, or undefined: when the poll has no request left, the bank caps its
	 * pages, or a record of `page` shows again in the next (records written above moved the list between the reads).
	 */
	private async withNextPage(page: Page): Promise<Page | undefined> {
		if (page.short || this.reader.requestsLeft < 1) return undefined;
		const next = await this.reader.read({ page: page.window.page + 1, size: page.window.size });
		const endsList = next.short && (await this.reader.endsList(next, this.nowMs, CAP_HOLD_MS));
		if (next.short && !endsList) return undefined;
		if (showsAgain(page, next)) return undefined;
		this.observe(next.slots);
		return { window: page.window, start: page.start, slots: [...page.slots, ...next.slots], short: endsList };
	}

	/** Moves the place to where `page` shows it; false when the page does not show where it is. */
	private place(page: Page, headPosition: number | undefined, expectedHead: number | null, oldHead: string | undefined, endsList: boolean): boolean {
		const { state } = this;
		const mirror = state.memory.mirror;
		const indexOf = new Map<string, number>();
		mirror.forEach((reference, i) => reference !== MALFORMED && !indexOf.has(reference) && indexOf.set(reference, i));
		const inPage = page.slots
			.map((slot, position) => ({ position, index: slot.reference === undefined ? undefined : indexOf.get(slot.reference) }))
			.filter((entry): entry is { position: number; index: number } => entry.index !== undefined);
		if (headPosition !== undefined) state.lag = page.start + headPosition;
		else if (inPage.length > 0) state.lag = Math.max(0, page.start + inPage[0].position - inPage[0].index);
		else return false; // the page said nothing of where the place is: the search goes on
		state.searchFrom = undefined;
		state.searchTo = undefined;
		state.searchMet = undefined;
		this.probes = 0;
		// What the bank wrote above the place since it was last read: room to leave for it in the next page.
		const was = oldHead === undefined || oldHead === MALFORMED ? undefined : page.slots.findIndex((slot) => slot.reference === oldHead);
		const grew = expectedHead !== null && was !== undefined && was >= 0 ? Math.max(0, page.start + was - expectedHead) : undefined;
		if (!this.stale && grew !== undefined) this.slack = Math.max(this.slack, TOP_SLACK + grew);
		if (this.stale) state.grewBy = grew;
		// The mirror entries this page showed at their ranks: a check for late records need not read them again.
		const lag = state.lag;
		this.placedPage = { page, endsList };
		const head = firstValid(state.memory);
		this.placeMeasured = headPosition !== undefined || (head !== undefined && inPage.length > 0 && inPage[0].index === head.index);
		const inPlace = inPage.filter((entry) => page.start + entry.position === lag + entry.index).map((entry) => entry.index);
		this.verifiedTo = inPlace.length > 0 ? Math.max(...inPlace) : -1;
		this.stale = false;
		return true;
	}

	/**
	 * Looks for records the bank wrote late, behind the place. Only once the trigger is up to the newest record.
	 * 1. The deepest mirrored record must stand at the rank the mirror gives it: if it does, nothing was written (or
	 *    removed) above it that the mirror lacks. If not, halving finds the shallowest record at the deepest one's
	 *    offset: the deepest stretch of late records lies just above it. A page showing the stretch between records
	 *    handled hands them on; a stretch longer than a page is read upward from that record (the place moves down to
	 *    it). Shallower stretches come next, each newer than the one before.
	 * 2. Below the deepest mirrored record, down to the floor: records written there are read the same way.
	 */
	async lookForLateRecords(): Promise<void> {
		const { state } = this;
		// Once the place is known in this poll (before a backlog above it is read, so what was written late behind it
		// comes first), and at most twice a poll.
		if (this.stale || state.lag === null || !this.placeMeasured || this.checks >= 2 || this.checkedInPlace) return;
		this.checks++;
		this.checkedInPlace = true;
		const indexOf = (reference: string | undefined) => mirrorIndexOf(state.memory.mirror, reference);
		const progress: CheckProgress = { good: this.verifiedTo >= 0 ? state.memory.mirror[this.verifiedTo] : undefined };
		// An earlier poll's check that ran out of requests goes on where it stood (its records still mirrored).
		const resumed = state.check;
		if (resumed?.good !== undefined && indexOf(resumed.good) > indexOf(progress.good)) progress.good = resumed.good;
		if (resumed?.bad !== undefined && indexOf(resumed.bad) > indexOf(progress.good)) {
			const { bad, offset, shallow, shallowOffset } = resumed;
			Object.assign(progress, { bad, offset, shallow, shallowOffset });
		}
		// Saved as it goes: a poll out of requests (or time) leaves it to the next; a check that ended clears it.
		state.check = progress;
		let ended: boolean | undefined;
		try {
			ended = await this.checkBehind(progress);
		} finally {
			// Interrupted (out of requests for now: a part of the poll keeps the rest for others): a later part may go on.
			if (ended === undefined) {
				this.checks--;
				this.checkedInPlace = false;
			}
		}
		if (ended) {
			state.check = undefined;
			this.checked = true;
		}
		this.mayHandOn = true;
		// The page held for this check is handed on now (unless the check moved the place: it is read again). A check
		// that can go no further in this poll lets it go too: records are late by a poll rather than stuck.
		const held = this.held;
		this.held = undefined;
		if (held !== undefined && state.lag !== null) await this.take(held.window, held.page, false, held.extend);
		state.heldPolls = undefined;
	}

	/** The rounds of one check (lookForLateRecords), from `progress`; true once it ended (found, or nothing there). */
	private async checkBehind(progress: CheckProgress): Promise<boolean> {
		const { state } = this;
		const memory = state.memory;
		const base = () => state.lag ?? 0;
		const indexOf = (reference: string | undefined) => mirrorIndexOf(memory.mirror, reference);
		/** References whose offset a page of this check showed (their ranks are measured, not remembered). */
		const measured = new Set<string>();
		let last = this.placedPage;
		let lastWindow: string | undefined;
		for (let round = 0; round < MAX_VERIFY_ROUNDS && state.lag !== null; round++) {
			const cap = this.reader.cap;
			const deepest = lastValid(memory.mirror);
			if (deepest < 0) return true;
			const from = indexOf(progress.good);
			let window: Window;
			let measuring = false;
			if (deepest <= from) {
				// Step 2: the deepest mirrored record stands where the mirror has it. Below it, down to the floor?
				const below = await this.lookBelow(deepest, last);
				if (below !== 'read') return true;
				// A page holding it and as much as possible below it; when every page holding it ends with it, the page
				// right below it.
				window = windowFor(base() + deepest, cap, 'top', 0);
				if (base() + deepest - startOf(window) === window.size - 1) window = windowFor(base() + deepest + 1, cap, 'top', 0);
			} else if (progress.offset === undefined || indexOf(progress.bad) <= from) {
				// Step 1: the deepest record's offset. It opens its page, so the page also shows what lies below it.
				measuring = true;
				window = windowFor(base() + deepest, cap, 'top', 0);
			} else {
				const offset = progress.offset;
				const hi = indexOf(progress.bad);
				const shallow = indexOf(progress.shallow);
				const lo = shallow > from && shallow < hi ? shallow : from;
				const rankHi = base() + hi + offset;
				const span = rankHi - (base() + lo + (lo === from ? 0 : (progress.shallowOffset ?? 0)));
				const mid = this.validNear(Math.floor((lo + hi) / 2), lo, hi);
				const holding = windowHolding(rankHi - span, rankHi, cap, TOP_SLACK);
				if (holding !== undefined) {
					// The stretch fits in a page: one showing both records hands on what lies between them.
					window = holding;
				} else if (mid === hi) {
					// Nothing mirrored between them, and more records than a page holds: read upward from the deeper one.
					this.reopen(hi, rankHi, measured.has(memory.mirror[hi]));
					return true;
				} else {
					window = windowFor(base() + mid + offset, cap, 'bottom', TOP_SLACK);
				}
			}
			const key = JSON.stringify(window);
			if (key === lastWindow) return false; // nothing changed since the same page was read: the next poll looks again
			lastWindow = key;
			const was = { bad: indexOf(progress.bad), shallow: indexOf(progress.shallow), deepest: memory.mirror[deepest] };
			const taken = await this.take(window, undefined, true);
			if (taken.outcome === 'capped') continue;
			last = taken;
			// Records the page added to the mirror above a record lower its offset by as many.
			if (progress.offset !== undefined) progress.offset = shifted(progress.offset, was.bad, indexOf(progress.bad));
			if (progress.shallowOffset !== undefined) progress.shallowOffset = shifted(progress.shallowOffset, was.shallow, indexOf(progress.shallow));
			const shown = this.offsetsIn(taken.page);
			for (const reference of shown.keys()) measured.add(reference);
			this.learn(progress, shown);
			if (measuring && !shown.has(was.deepest) && indexOf(was.deepest) >= 0) {
				// The deepest record is not where it could be: more records were written above it than its page holds
				// (or the bank no longer lists it there). The list is read upward from it, found again by a search.
				this.reopen(indexOf(was.deepest), taken.page.start + taken.page.slots.length, false);
				return true;
			}
		}
		return false;
	}

	/**
	 * Below the deepest mirrored record (at `deepest`, in place), as far as the floor, as `last` shows it: 'settled'
	 * when nothing was written there, 'reopened' when records were (they are read upward), 'read' when a page must
	 * show it.
	 */
	private async lookBelow(deepest: number, last: { page: Page; endsList: boolean } | undefined): Promise<'settled' | 'reopened' | 'read'> {
		const { state } = this;
		const memory = state.memory;
		const probe = memory.mirror[deepest];
		const ms = memory.seen.get(probe);
		// Below a record older than the floor lies history only.
		if (state.floorMs !== null && ms !== undefined && ms < state.floorMs) return 'settled';
		const shown = last === undefined ? -1 : last.page.slots.findIndex((slot) => slot.reference === probe);
		// A page that shows it, or starts right below it (it stands in place: its rank is known).
		if (last === undefined || (shown < 0 && last.page.start !== (state.lag ?? 0) + deepest + 1)) return 'read';
		const endsList = last.endsList || (last.page.short && (await this.reader.endsList(last.page, this.nowMs, CAP_HOLD_MS)));
		const below = belowOf(memory, last.page.slots, shown, endsList, state.floorMs);
		if (below.settled) return 'settled';
		if (!below.lateBelow) return 'read';
		this.reopen(memory.mirror.length, last.page.start + last.page.slots.length, false);
		return 'reopened';
	}

	/** The offset of each mirrored record `page` shows (see CheckProgress), by reference. */
	private offsetsIn(page: Page): Map<string, number> {
		const lag = this.state.lag ?? 0;
		const mirror = this.state.memory.mirror;
		const offsets = new Map<string, number>();
		page.slots.forEach((slot, position) => {
			const index = mirrorIndexOf(mirror, slot.reference);
			if (slot.reference !== undefined && index >= 0) offsets.set(slot.reference, page.start + position - (lag + index));
		});
		return offsets;
	}

	/** What one page's offsets say of where the deepest stretch of late records lies. */
	private learn(progress: CheckProgress, shown: Map<string, number>): void {
		const mirror = this.state.memory.mirror;
		const indexOf = (reference: string | undefined) => mirrorIndexOf(mirror, reference);
		const deepest = mirror[lastValid(mirror)];
		const deepestOffset = shown.get(deepest);
		if (deepestOffset !== undefined && deepestOffset !== progress.offset) {
			progress.offset = deepestOffset;
			progress.bad = deepest;
			progress.shallow = undefined;
		}
		const bad = progress.bad === undefined ? undefined : shown.get(progress.bad);
		if (bad !== undefined && bad !== progress.offset) progress.offset = undefined;
		// Records at or above the last seen in place that are not (written late above them since): in place is only
		// what this poll's placing page showed.
		const good = indexOf(progress.good);
		if ([...shown].some(([reference, offset]) => offset !== 0 && indexOf(reference) <= good)) {
			progress.good = this.verifiedTo >= 0 ? mirror[this.verifiedTo] : undefined;
			progress.shallow = undefined;
		}
		for (const [reference, offset] of [...shown].sort((a, b) => indexOf(a[0]) - indexOf(b[0]))) {
			const index = indexOf(reference);
			if (offset === 0 && index > indexOf(progress.good)) progress.good = reference;
			if (progress.offset === undefined || offset === 0) continue;
			if (offset > progress.offset) {
				// Deeper than the deepest record's offset: the list changed under the check; it measures again.
				progress.offset = undefined;
				return;
			}
			if (offset === progress.offset && index < indexOf(progress.bad)) progress.bad = reference;
			if (offset < progress.offset && index > indexOf(progress.shallow) && index < indexOf(progress.bad)) {
				progress.shallow = reference;
				progress.shallowOffset = offset;
			}
		}
		// Nothing written late above the deepest record: all is in place.
		if (progress.offset === 0) progress.good = deepest;
	}

	/**
	 * The place moves down to mirror entry `index` (the records above it stay remembered, not mirrored). `rank`: where
	 * a page of this poll showed it (`shown`), or a rank it lies at or below, from which it is searched for (with no
	 * entry there, from the floor).
	 */
	private reopen(index: number, rank: number, shown: boolean): void {
		const { state } = this;
		this.held = undefined;
		state.memory.mirror = state.memory.mirror.slice(index);
		state.lag = shown ? rank : null;
		state.searchFrom = shown ? undefined : rank;
		this.stale = false;
		state.searchTo = undefined;
		state.searchMet = undefined;
	}

	/** A mirror index near `i` (strictly between `from` and `to`) holding a record, not a malformed slot. */
	private validNear(i: number, from: number, to: number): number {
		const mirror = this.state.memory.mirror;
		for (let d = 0; d < to - from; d++) {
			for (const j of [i - d, i + d]) if (j > from && j < to && mirror[j] !== MALFORMED) return j;
		}
		return to;
	}
}

/** The mirror index of `reference`, or -1. */
const mirrorIndexOf = (mirror: string[], reference: string | undefined) => (reference === undefined ? -1 : mirror.indexOf(reference));

/** An offset learned when a record stood at mirror index `was`, now that it stands at `now`; undefined when gone. */
const shifted = (offset: number, was: number, now: number) => (was < 0 || now < 0 ? undefined : offset - (now - was));

/** The index of the mirror's last entry that is a record, or -1. */
function lastValid(mirror: string[]): number {
	for (let i = mirror.length - 1; i >= 0; i--) if (mirror[i] !== MALFORMED) return i;
	return -1;
}
