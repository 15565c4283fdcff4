/**
 * Follows one list of the bank from where the trigger stands up to its newest record, one page per step, and
 * hands on each record not handled before, oldest first. What it holds (ListState) is saved between polls.
 * The place: `lag`, the rank of the mirror's first entry (the newest record handled) in the bank's list; 0: read
 * up to the newest record. A backlog is read upward from the place: each page is chosen (windows.ts) so that the
 * place falls near its bottom, and the records above it are handed on, oldest first. Records the bank writes
 * meanwhile at the top only push the place down. A page that does not show the place starts a search (search.ts);
 * records written late behind the place are looked for first (check.ts): a page that would hand records on waits
 * for that check (held).
 */
import { takeAcross, withNextPage, withPageAbove } from './across';
import { lookForLateRecords } from './check';
import type { Reading } from './memory';
import { firstValid, historyFloor, MALFORMED, readAgainst, takeIn } from './memory';
import { endsList, readPage } from './pages';
import { clearSearch, searchFrom, searchStep, standsOnHistory } from './search';
import type { Core, FollowOptions, ListState, Need, Page, Phase } from './types';
import { needOf, PHASES } from './types';
import type { Window } from './windows';
import { placeMove } from './moves';

/**
 * Polls in a row a list's new records may wait for a check that cannot end in one poll for lack of requests. The
 * check goes on from where each poll left it (ListState.check), and halving a memory of 5,000 records takes 13 pages,
 * so with a page a poll it ends within 16 polls: records written late come before newer ones. The bound only keeps a
 * list whose late records never stop (so its check never ends) from holding its new records for good.
 */
const MAX_HELD_POLLS = 16;

export type Taken = { outcome: 'placed' | 'unplaced' | 'capped'; page: Page; endsList: boolean };

/** One list followed for one poll: made afresh each poll on the saved state, driven by the poll (poll.ts). */
export class ListFollower {
	/**
	 * What this list is doing in this poll (Phase). It only moves forward, by `enter`; what a page it asks for is
	 * for follows from it (needOf).
	 */
	phase: Phase = 'place';
	/** Records between the place and a page's bottom: grows with what the bank writes between two reads. */
	slack = 0;
	/** The search for the place: pages read in this poll, and whether it goes on from an earlier poll's (galloping). */
	readonly search: { probes: number; readonly resumed: boolean };
	/**
	 * The last page read in this poll that placed the trigger, and what it showed: mirror entries 0 … verifiedTo at
	 * their ranks. A page places the trigger only by showing the mirror's first record (place()), never by an
	 * estimate from deeper ones.
	 */
	placing?: { page: Page; endsList: boolean; verifiedTo: number };
	/**
	 * New records above the place wait for the check, older than anything it finds: the page held meanwhile, how many
	 * polls in a row before this one held a page they could not hand on (ListState.heldPolls), and whether this poll
	 * waits at all (not for a list whose records are not ordered, nor after MAX_HELD_POLLS such polls).
	 */
	readonly hold: { page?: { window: Window; page: Page; extend: boolean }; readonly before: number; readonly waits: boolean };

	constructor(
		readonly state: ListState,
		readonly options: FollowOptions,
	) {
		this.search = { probes: 0, resumed: state.lag === null && (state.searchFrom ?? 0) > 0 };
		const before = state.heldPolls ?? 0;
		this.hold = { before, waits: options.ordered && before < MAX_HELD_POLLS };
		if (!this.hold.waits) state.heldPolls = undefined;
	}

	/** Moves this poll's phase forward to `next`; never back (a phase already passed stays passed). */
	enter(next: Phase): void {
		if (PHASES.indexOf(next) > PHASES.indexOf(this.phase)) this.phase = next;
	}

	/** The place was read in this poll (until then it is the saved one). */
	get placed(): boolean {
		return this.phase !== 'place';
	}

	/** The check for records written late ran in this poll (it runs once a poll). */
	get checkRan(): boolean {
		return this.phase === 'check' || this.phase === 'checkPaused' || this.phase === 'checked';
	}

	/** A record could not be handed on (no request left for its look-up): this list does no more in this poll. */
	get stopped(): boolean {
		return this.phase === 'stopped';
	}

	/** New records above the place may be handed on now: the check ran as far as it could, or nothing waits for it. */
	get handsOn(): boolean {
		return !this.hold.waits || this.phase === 'checkPaused' || this.phase === 'checked';
	}

	/** One page of this list; `need` tells the poll what it is for. */
	*read(window: Window, need?: Need, atLeast?: number): Core<Page> {
		return yield* readPage(this.state.paging, this.options, window, need ?? needOf(this.phase), atLeast);
	}

	/** Whether a short page is where the list ends (pages.ts). */
	*endsList(page: Page, need?: Need): Core<boolean> {
		return yield* endsList(this.state.paging, this.options, page, need ?? needOf(this.phase));
	}

	/** Read up to the bank's newest record in this poll. */
	get caughtUp(): boolean {
		return this.placed && !this.stopped && this.state.lag === 0 && this.hold.page === undefined;
	}

	/** New records wait for a check for records written late that cannot go on in this poll. */
	get waiting(): boolean {
		return this.hold.page !== undefined;
	}

	/** Nothing left for a later poll: up to the newest record, and looked behind the place (or nothing to look at). */
	get settled(): boolean {
		return this.caughtUp && (this.phase === 'checked' || firstValid(this.state.memory) === undefined);
	}

	/**
	 * One page toward the newest record. Once the place is known in a poll, records written late behind it are looked
	 * for first: they are older than the backlog above it.
	 */
	*step(): Core<void> {
		yield* this.advance();
		if (!this.checkRan && !this.stopped) yield* this.lookForLateRecords();
	}

	/** One page toward the newest record, without the check for records written late (poll.ts takes turns with it). */
	*advance(): Core<void> {
		const { state } = this;
		if (this.hold.page !== undefined) return yield* this.lookForLateRecords();
		if (firstValid(state.memory) === undefined && state.lag !== null) {
			// Nothing handled to stand on yet (or no record after the floor so far): look from the top again.
			state.lag = null;
			clearSearch(state);
		}
		const move = placeMove(state, this.placed, this.slack);
		if (move === undefined) return yield* searchStep(this);
		const { window, rank, across } = move;
		const taken = across ? yield* takeAcross(this, window) : yield* this.take(window);
		if (taken.outcome === 'unplaced') yield* searchFrom(this, taken, rank);
	}

	/**
	 * Reads one page (or takes one already read) and hands on what it places. A page read to find or move the place
	 * updates it; a page read to check what lies behind the place (`checking`) does not: where the place stands is
	 * then what is being checked.
	 */
	*take(window: Window, read?: Page, checking = false, extend = true, endsKnown?: boolean): Core<Taken> {
		const { state } = this;
		// A page read for the check is the check's to pay for (the poll serves checks after every list's place).
		const need: Need | undefined = checking ? 'check' : undefined;
		let page = read ?? (yield* this.read(window, need));
		// A page joined with the page above or below it (read when nothing moved between) is read once more, as one.
		for (;;) {
			const judged = yield* this.judge(page, need, endsKnown);
			if (judged === 'capped') return { outcome: 'capped', page, endsList: false };
			const { reading, endsList } = judged;
			// Placed only against handled records, or when it hands something on: an empty page past the list's end, or
			// a page of history, says only where not to look. But for history under entries with no record, on which the
			// search found news above: the trigger stands on that history record, saved, and what lies above it is read
			// upward like any backlog, at the next poll if not in this one (standsOnHistory).
			const boundary = standsOnHistory(state, page, reading);
			// History or the list's end opens the page, or lies under malformed entries only (pages of one record, or a
			// boundary right above it): what lies just above is read with it, when nothing moved in between.
			const above = (reading.anchor === 'floor' || reading.anchor === 'end') && reading.deliver.length === 0 && boundary === undefined;
			const joined = !extend ? undefined : above ? yield* withPageAbove(this, page, need) : undefined;
			if (joined !== undefined) {
				[page, extend, endsKnown] = [joined, false, undefined];
				continue;
			}
			if (reading.anchor === 'none' || (reading.anchor !== 'handled' && reading.deliver.length === 0 && boundary === undefined)) return { outcome: 'unplaced', page, endsList };
			// New records below handled ones run on to the page's end: the next page may show a handled record below
			// them, which places them (read together as one page when nothing moved between the two reads).
			const below = reading.unplacedBelow && !endsList && extend ? yield* withNextPage(this, page, need) : undefined;
			if (below !== undefined) {
				[page, extend, endsKnown] = [below, false, undefined];
				continue;
			}
			return yield* this.takeReading(window, page, { reading, endsList, boundary }, checking, extend);
		}
	}

	/** How `page` reads against the memory; whether a short page ends the list, when anything depends on it. */
	private *judge(page: Page, need: Need | undefined, endsKnown: boolean | undefined): Core<{ reading: Reading; endsList: boolean } | 'capped'> {
		const { state } = this;
		const readAs = (reachesEnd: boolean) => readAgainst(state.memory, page.slots, reachesEnd, historyFloor(state), state.paging.asWritten === true && this.options.gainsByStatus !== true);
		const reading = readAs(false);
		if (endsKnown !== undefined) return { reading: endsKnown ? readAs(true) : reading, endsList: endsKnown };
		if (!page.short || !(reading.anchor === 'none' || reading.unplacedBelow || reading.besideEnd === true)) return { reading, endsList: false };
		const endsList = yield* this.endsList(page, need);
		if (!endsList && reading.anchor === 'none') return 'capped';
		return { reading: endsList ? readAs(true) : reading, endsList };
	}

	/** Takes in a page read and placed (take): hands on what it may, moves the place, or holds it for the check. */
	private *takeReading(window: Window, page: Page, read: { reading: Reading; endsList: boolean; boundary?: number }, checking: boolean, extend: boolean): Core<Taken> {
		const { state } = this;
		const memory = state.memory;
		const { reading, endsList, boundary } = read;
		if (reading.unplacedBelow && !endsList) {
			// New records below handled ones run on past the page: older than everything new above them, they come
			// first. The place moves below them, past the mirror's end, and the list is read upward from there
			// (handled records are skipped). (Reopening at the handled record after the page's deepest one instead saved
			// 5 polls of the model check's 2,441 and 11 of the sweep's 6,864; no test or history needed it.)
			this.reopen(memory.mirror.length, page.start + page.slots.length, false);
			return { outcome: 'placed', page, endsList };
		}
		const first = firstValid(memory);
		const expectedHead = state.lag === null || first === undefined ? null : state.lag + first.index;
		const oldHead = first?.reference;
		if (!checking && !this.handsOn && first !== undefined && reading.deliver.length > 0 && this.options.requestsLeft() > 0) {
			// Records behind the place come first: this page only places the trigger until the check has ended (when
			// the poll has a request left for it). The check runs next (step, followList), then hands it on (release).
			const { headPosition } = takeIn(state.memory, page.slots, reading, [], page.start === 0);
			if (!this.place(page, headPosition, expectedHead, oldHead, endsList)) return { outcome: 'unplaced', page, endsList };
			this.hold.page = { window, page, extend };
			state.heldPolls = this.hold.before + 1; // until all of it is handed on
			return { outcome: 'placed', page, endsList };
		}
		// Handed on by the poll, oldest first: as many as it could (a transfer's status look-up takes a request). Those
		// not handed on are not taken in: a later page shows them again. A page read for the check hands on only what
		// lies behind the place: above it lies the backlog, newer than anything the check may still find (the climb
		// hands it on once the check has ended).
		const deliver = checking && expectedHead !== null ? reading.deliver.filter((position) => page.start + position > expectedHead) : reading.deliver;
		const count = deliver.length === 0 ? 0 : ((yield { kind: 'handOn', slots: deliver.map((position) => page.slots[position]) }) as number);
		const handled = deliver.slice(0, count);
		const { headPosition } = takeIn(state.memory, page.slots, reading, handled, page.start === 0, boundary);
		const placed = !checking || headPosition !== undefined ? this.place(page, headPosition, expectedHead, oldHead, endsList) : true;
		if (count < deliver.length) this.enter('stopped');
		// A page that handed nothing on and showed no mirrored record (only records remembered from above the place,
		// pushed into it by records written since) did not place the trigger: the place is looked for below it.
		if (!placed && handled.length === 0) return { outcome: 'unplaced', page, endsList };
		return { outcome: 'placed', page, endsList };
	}

	/** Moves the place to where `page` shows it; false when the page does not show where it is. */
	private place(page: Page, headPosition: number | undefined, expectedHead: number | null, oldHead: string | undefined, endsList: boolean): boolean {
		const { state } = this;
		// The page's entries that the mirror holds, with their mirror index.
		const mirrored = () => {
			const indexOf = new Map<string, number>();
			state.memory.mirror.forEach((reference, i) => reference !== MALFORMED && !indexOf.has(reference) && indexOf.set(reference, i));
			return page.slots
				.map((slot, position) => ({ position, index: slot.reference === undefined ? undefined : indexOf.get(slot.reference) }))
				.filter((entry): entry is { position: number; index: number } => entry.index !== undefined);
		};
		let inPage = mirrored();
		if (headPosition === undefined && inPage.length === 0) return false; // the page said nothing of where the place is: the search goes on
		if (headPosition === undefined && inPage[0].index > 0) {
			// Shown only by handled records deeper than the place: where the place stands above them is not known (a
			// record stamped in the bank's future stays on top while newer ones land below it, so a burst can lie
			// between them), so it is never estimated from them: the list is read upward from the record the page shows.
			this.reopen(inPage[0].index, page.start + inPage[0].position, true);
			[headPosition, expectedHead, oldHead] = [inPage[0].position, null, undefined];
			inPage = mirrored();
		}
		state.lag = page.start + (headPosition ?? inPage[0].position);
		clearSearch(state);
		this.search.probes = 0;
		// What the bank wrote above the place since it was last read: room to leave for it in the next page.
		const was = oldHead === undefined || oldHead === MALFORMED ? undefined : page.slots.findIndex((slot) => slot.reference === oldHead);
		const grew = expectedHead !== null && was !== undefined && was >= 0 ? Math.max(0, page.start + was - expectedHead) : undefined;
		if (this.placed && grew !== undefined) this.slack = Math.max(this.slack, grew);
		if (!this.placed) state.grewBy = grew;
		// The mirror entries this page showed at their ranks: a check for late records need not read them again.
		const lag = state.lag;
		const inPlace = inPage.filter((entry) => page.start + entry.position === lag + entry.index).map((entry) => entry.index);
		this.placing = { page, endsList, verifiedTo: inPlace.length > 0 ? Math.max(...inPlace) : -1 };
		this.enter('climb');
		return true;
	}

	/** Looks for records the bank wrote late, behind the place (check.ts). */
	*lookForLateRecords(): Core<void> {
		yield* lookForLateRecords(this);
	}

	/**
	 * The place moves down to mirror entry `index` (the records above it stay remembered, not mirrored). `rank`: where
	 * a page of this poll showed it (`shown`), or a rank it lies at or below, from which it is searched for (with no
	 * entry there, from the floor).
	 */
	reopen(index: number, rank: number, shown: boolean): void {
		const { state } = this;
		this.hold.page = undefined;
		state.memory.mirror = state.memory.mirror.slice(index);
		state.lag = shown ? rank : null;
		clearSearch(state, shown ? undefined : rank);
		this.enter('climb');
	}
}
