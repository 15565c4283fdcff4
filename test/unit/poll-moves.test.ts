/**
 * The core's choice of its next page (core/moves.ts), a pure function of the saved state and what this poll read:
 * each choice held on a state spelled out, with no list, no poll and no generator around it. What the pages then
 * show, and that the whole follower ends right, is the fuzzers' (poll-check-fuzz.test.ts, poll-fuzz.test.ts).
 */
import { emptyMemory, MALFORMED } from '../../nodes/BaasPollTrigger/core/memory';
import type { CheckView } from '../../nodes/BaasPollTrigger/core/moves';
import { belowMove, boundsMove, placeMove, searchMove } from '../../nodes/BaasPollTrigger/core/moves';
import { boundsOf, learnBounds, saveBounds } from '../../nodes/BaasPollTrigger/core/offsets';
import type { CheckProgress } from '../../nodes/BaasPollTrigger/core/types';
import type { ListState, Page } from '../../nodes/BaasPollTrigger/core/types';
import type { Window } from '../../nodes/BaasPollTrigger/core/windows';
import { startOf } from '../../nodes/BaasPollTrigger/core/windows';

/** h0 (the place) … h39 handled and mirrored, the place at rank 10, pages of up to 5, nothing learned yet. */
const view = (over: Partial<CheckView> = {}): CheckView => ({
	mirror: Array.from({ length: 40 }, (_, i) => `h${i}`),
	lag: 10,
	cap: 5,
	deepest: 39,
	from: 3,
	bounds: { good: 'h3' },
	blind: new Map(),
	measured: new Set(),
	requestsLeft: 10,
	...over,
});

const holds = (window: Window, rank: number) => startOf(window) <= rank && rank < startOf(window) + window.size;
const page = (start: number, length: number, short = false): { page: Page; endsList: boolean } => ({
	page: { window: { page: 1, size: length }, start, slots: Array.from({ length }, (_, i) => ({ reference: `r${start + i}` })), short },
	endsList: false,
});

describe('Poll Trigger: the check picks its next page from what it knows (core/moves.ts)', () => {
	it('measures the deepest record first: a page it opens (or all but), which also shows what lies below it', () => {
		const move = boundsMove(view());
		expect(move).toMatchObject({ kind: 'read', measuring: true });
		if (move.kind === 'read') expect(holds(move.window, 10 + 39) && holds(move.window, 10 + 40) && startOf(move.window) >= 10 + 38).toBe(true);
		// So too when the saved deeper bound lies at or above the last record seen in place: it bounds nothing.
		expect(boundsMove(view({ bounds: { good: 'h3', bad: 'h2', offset: 2 } }))).toMatchObject({ kind: 'read', measuring: true });
	});

	it('reads one page showing both bounds when the deepest stretch fits in it', () => {
		// h22 stands 2 ranks deep, h19 (the shallower bound) 1: the stretch lies between ranks 30 and 34.
		const move = boundsMove(view({ bounds: { good: 'h3', bad: 'h22', offset: 2, shallow: 'h19', shallowOffset: 1 } }));
		expect(move.kind).toBe('read');
		if (move.kind === 'read') {
			expect(holds(move.window, 10 + 19 + 1) && holds(move.window, 10 + 22 + 2)).toBe(true);
			expect(move.probing).toBeUndefined();
		}
	});

	it('halves a stretch longer than a page: the record halfway where it would stand in the stretch, then in place, then reads upward', () => {
		const bounds = { good: 'h3', bad: 'h39', offset: 8 };
		const first = boundsMove(view({ bounds }));
		expect(first).toMatchObject({ kind: 'read', probing: 'h21' });
		if (first.kind === 'read') expect(holds(first.window, 10 + 21 + 8)).toBe(true);
		// That page showed no mirrored record (a record written late stands there): the page showing h21 in place.
		const second = boundsMove(view({ bounds, blind: new Map([['h21', 1]]), lastWindow: first.kind === 'read' ? JSON.stringify(first.window) : undefined }));
		expect(second).toMatchObject({ kind: 'read', probing: 'h21' });
		if (second.kind === 'read') expect(holds(second.window, 10 + 21)).toBe(true);
		// Blind twice: read upward from the deeper record, never the same page for good. Its rank was measured in
		// this poll, so the place stands there (shown).
		expect(boundsMove(view({ bounds, blind: new Map([['h21', 2]]), measured: new Set(['h39']) }))).toEqual({ kind: 'reopen', index: 39, rank: 10 + 39 + 8, shown: true });
		// Where the page in place is the page the probe read, it is not read again.
		const same = { good: 'h3', bad: 'h39', offset: 3 };
		const probe = boundsMove(view({ bounds: same }));
		const key = probe.kind === 'read' ? JSON.stringify(probe.window) : undefined;
		expect(boundsMove(view({ bounds: same, blind: new Map([['h21', 1]]), lastWindow: key }))).toMatchObject({ kind: 'reopen', index: 39 });
	});

	it('probes the nearest record halfway, not a malformed entry, and reads upward when nothing mirrored lies between the bounds', () => {
		const mirror = view().mirror.map((reference, i) => (i === 21 ? MALFORMED : reference));
		expect(boundsMove(view({ mirror, bounds: { good: 'h3', bad: 'h39', offset: 3 } }))).toMatchObject({ kind: 'read', probing: 'h20' });
		// h3 in place, h4 ten ranks deep: more records than a page between two neighbours. Its rank was not measured in
		// this poll (a saved bound): the place is searched for from there.
		expect(boundsMove(view({ bounds: { good: 'h3', bad: 'h4', offset: 10 } }))).toEqual({ kind: 'reopen', index: 4, rank: 10 + 4 + 10, shown: false });
	});

	it('looks below the deepest record with the page right below it when every page holding it ends with it, and pauses rather than read the same page again with no request left', () => {
		// One record a page: the page holding h39 ends with it, so the page below it.
		const one = belowMove(view({ cap: 1, from: 39 }));
		expect(one).toEqual({ kind: 'read', window: { page: 10 + 39 + 2, size: 1 } });
		// Pages of 5: a page holding h39 near its top, and what lies below it.
		const five = belowMove(view({ from: 39 }));
		expect(five.kind === 'read' && holds(five.window, 49) && holds(five.window, 50)).toBe(true);
		// The page just read already ends past it: the page after it, or a pause with no request left.
		const last = page(45, 10);
		const after = belowMove(view({ from: 39, last }));
		expect(after.kind === 'read' && startOf(after.window)).toBe(55);
		expect(belowMove(view({ from: 39, last, requestsLeft: 0 }))).toEqual({ kind: 'pause' });
	});
});

/** A list standing with `mirror` handled, its newest at rank `lag`, pages of up to `cap`. */
const standing = (mirror: string[], lag: number | null, cap: number, over: Partial<ListState> = {}): ListState => ({
	memory: { ...emptyMemory(), mirror, seen: new Map(mirror.filter((reference) => reference !== MALFORMED).map((reference) => [reference, 0])) },
	lag,
	floorMs: null,
	paging: { cap, served: cap },
	...over,
});

describe('Poll Trigger: the place and the search pick their next page (core/moves.ts)', () => {
	it('reads the place near the bottom of a page, with room below it for what the bank wrote above it since', () => {
		const list = standing(['a', 'b', 'c'], 37, 10);
		const roomBelow = (move: ReturnType<typeof placeMove>) => (move === undefined || !holds(move.window, 37) ? -1 : startOf(move.window) + move.window.size - 1 - 37);
		// First page of a poll, nothing known of how fast the top grows: half a page of room below the place (at least).
		const first = placeMove(list, false, 0);
		expect(first?.rank).toBe(37);
		expect(roomBelow(first)).toBeGreaterThanOrEqual(5);
		// The top grew by 1 between the last two polls: twice that room, and more of the page above the place.
		expect(roomBelow(placeMove({ ...list, grewBy: 1 }, false, 0))).toBe(2);
		// Once placed in the poll, the room is what this poll saw written (slack): 3 here.
		const placed = placeMove(list, true, 3);
		expect(roomBelow(placed)).toBeGreaterThanOrEqual(3);
		expect(placed?.across).toBe(false);
	});

	it('stands on the newest record, not a malformed entry on top, and reads across pages when the cap divides its rank', () => {
		const list = standing([MALFORMED, 'a', 'b'], 4, 1);
		expect(placeMove(list, true, 0)).toEqual({ window: { page: 6, size: 1 }, rank: 5, across: true });
		expect(placeMove(standing(['a'], null, 10), true, 0)).toBeUndefined();
		expect(placeMove(standing([MALFORMED], 3, 10), true, 0)).toBeUndefined();
	});

	it('searches from its lower bound, then further down, doubling, then halves between its bounds, and walks up where it left off', () => {
		const list = standing(['a'], null, 10, { searchFrom: 40 });
		expect(holds(searchMove(list, 0, false), 40)).toBe(true);
		expect(holds(searchMove(list, 1, false), 80)).toBe(true);
		// Resumed from an earlier poll's search: the lower bound was read then, so further down at once.
		expect(holds(searchMove(list, 0, true), 80)).toBe(true);
		// Bounds 40 and 140: the page halfway (ranks 85 on), not either end.
		expect(holds(searchMove({ ...list, searchTo: 140 }, 3, false), 85)).toBe(true);
		// A walk up through malformed entries: the page ending at 63, where it stopped.
		const walk = searchMove({ ...list, searchAbove: 63 }, 2, false);
		expect(startOf(walk) + walk.size - 1).toBe(63);
		// Its second round (the bounds met on nothing once) steps down from the lower bound, a page at a time, neither
		// doubling nor halving: each page is placed by its rank alone.
		for (const probes of [0, 1, 3]) expect(startOf(searchMove({ ...list, searchMet: true }, probes, true))).toBe(40);
		expect(startOf(searchMove({ ...list, searchMet: true, searchTo: 140 }, 3, false))).toBe(40);
	});
});

describe('Poll Trigger: what a page of the check says of where the deepest stretch lies (learnBounds, core/offsets.ts)', () => {
	const mirror = Array.from({ length: 40 }, (_, i) => `h${i}`);
	const shown = (entries: Array<[string, number]>) => new Map(entries);

	it('takes the deepest record\'s offset as the deeper bound, and the records a page shows in place as in place', () => {
		expect(learnBounds(mirror, 'h3', { good: 'h3' }, shown([['h38', 0], ['h39', 5]]))).toMatchObject({ good: 'h38', bad: 'h39', offset: 5 });
		// The deepest record in place: everything is.
		expect(learnBounds(mirror, 'h3', { good: 'h3' }, shown([['h39', 0]]))).toMatchObject({ good: 'h39', bad: 'h39', offset: 0 });
	});

	it('narrows the stretch from both sides: a record at the deeper offset moves the deeper bound up, one at a smaller offset becomes the shallower bound', () => {
		const before = { good: 'h3', bad: 'h39', offset: 5 };
		expect(learnBounds(mirror, 'h3', before, shown([['h20', 5], ['h21', 5]]))).toMatchObject({ bad: 'h20', offset: 5 });
		expect(learnBounds(mirror, 'h3', before, shown([['h20', 2]]))).toMatchObject({ bad: 'h39', offset: 5, shallow: 'h20', shallowOffset: 2 });
	});

	it('measures again when a page shows the list changed under the check, and takes back what was in place above a record written late', () => {
		// A record deeper than the deepest record's offset, or the deeper bound at another offset than saved.
		expect(learnBounds(mirror, 'h3', { good: 'h3', bad: 'h30', offset: 2 }, shown([['h25', 4]])).offset).toBeUndefined();
		expect(learnBounds(mirror, 'h3', { good: 'h3', bad: 'h30', offset: 2 }, shown([['h30', 3]])).offset).toBeUndefined();
		// h10 was seen in place; a page now shows h8 a rank deep: in place is only what this poll's place page showed.
		const after = learnBounds(mirror, 'h3', { good: 'h10', bad: 'h39', offset: 5, shallow: 'h20', shallowOffset: 2 }, shown([['h8', 1]]));
		expect(after.good).toBe('h3');
		expect(after.shallow).toBe('h8');
	});
});

describe('Poll Trigger: a paused check\'s bounds, saved as facts, stay true as the mirror takes records in (core/offsets.ts)', () => {
	it('anchors a bound at the deepest record seen in place: records written later under a top stamped in the bank\'s future, then taken in, leave its offset as it was', () => {
		// F tops the list (stamped in the bank's future), h0…h9 handled; x was written late between h5 and h6, so h9
		// stands one rank deeper than the mirror has it. A paused check saved that, with h5 seen in place.
		const mirror = ['F', ...Array.from({ length: 10 }, (_, i) => `h${i}`)];
		const progress: CheckProgress = {};
		saveBounds(mirror, progress, { good: 'h5', bad: 'h9', offset: 1 });
		// Before the check goes on, n1 and n2 are written under F (a list by created_at keeps F on top) and a page
		// climbing to the top takes them in. x still lacks above h9: its offset is still 1. Anchored at F (the rule
		// before), the two records taken in between F and h9 counted against the offset: -1, which no list shows.
		const later = ['F', 'n1', 'n2', ...mirror.slice(1)];
		expect(boundsOf(later, progress)).toMatchObject({ good: 'h5', bad: 'h9', offset: 1 });
		// With nothing seen in place above the bound, the mirror's first record is the anchor.
		const first: CheckProgress = {};
		saveBounds(mirror, first, { bad: 'h9', offset: 1 });
		expect(first.bad).toEqual({ reference: 'h9', anchor: 'F', span: 11 });
	});
});
