/**
 * The check's choice of its next page (core/checkMove.ts), a pure function of what it knows in a round: each choice
 * held on a mirror spelled out, with no list, no poll and no generator around it. What the pages then show, and that
 * the whole check ends right, is the check fuzz's (poll-check-fuzz.test.ts).
 */
import type { CheckView } from '../../nodes/BaasPollTrigger/core/checkMove';
import { belowMove, boundsMove } from '../../nodes/BaasPollTrigger/core/checkMove';
import { MALFORMED } from '../../nodes/BaasPollTrigger/core/memory';
import type { Page } from '../../nodes/BaasPollTrigger/core/types';
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

describe('Poll Trigger: the check picks its next page from what it knows (core/checkMove.ts)', () => {
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
