/**
 * Follows one list of the bank from where the trigger stands up to its newest record, one page per step, and
 * hands on each record not handled before, oldest first. What it holds (ListState) is saved between polls.
 * The place: `lag`, the rank of the mirror's first entry (the newest record handled) in the bank's list; 0: read
 * up to the newest record. A backlog is read upward from the place: each page is chosen (windows.ts) so that the
 * place falls near its bottom, and the records above it are handed on, oldest first. Records the bank writes
 * meanwhile at the top only push the place down. A page that does not show the place starts a search (search.ts);
 * records written late behind the place are looked for first (check.ts): a page that would hand records on waits
 * for that check (held). The follower holds the list's state and this poll's; its work is done by tasks (frames.ts,
 * steps.ts: one poll of a list is the task followList, flow.ts), stepped by run.ts with each answer of the poll.
 */
import type { Frame } from './frames';
import { followList } from './frames';
import { firstValid, MALFORMED } from './memory';
import { clearSearch } from './search';
import type { FollowOptions, ListState, Page, Phase } from './types';
import { PHASES } from './types';
import type { Window } from './windows';

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
	/**
	 * Where the list stands in this poll's work, as data: the tasks in progress, the innermost last (core/frames.ts).
	 * A poll starts with one, the whole poll of the list (followList); run.ts steps them with each answer.
	 */
	readonly frames: Frame[] = [followList()];

	constructor(
		readonly state: ListState,
		readonly options: FollowOptions,
	) {
		this.search = { probes: 0, resumed: state.lag === null && (state.searchFrom ?? 0) > 0 };
		const before = state.heldPolls ?? 0;
		this.hold = { before, waits: options.ordered && before < MAX_HELD_POLLS };
		if (!options.ordered) state.heldPolls = undefined;
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

	/** Moves the place to where `page` shows it; false when the page does not show where it is. */
	place(page: Page, headPosition: number | undefined, expectedHead: number | null, oldHead: string | undefined, endsList: boolean): boolean {
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
