/**
 * The Poll Trigger's saved list state (state.ts): what n8n keeps in static data between polls and across restarts.
 * The note the check leaves right below the deepest record (`belowDeepest`) must come back as it was saved, and only
 * while that record is still mirrored: found at its rank, it ends a check with one request. So must a paused check's
 * bounds (facts: where a page showed a record, against the mirror's first record), while both records are mirrored.
 */
import type { ListState } from '../../nodes/BaasPollTrigger/core/types';
import type { StreamState } from '../../nodes/BaasPollTrigger/state';
import { listToJson, parseListState, parseState, stateToJson } from '../../nodes/BaasPollTrigger/state';

const SCOPE = 'api';
const NOW = Date.UTC(2026, 1, 1);

function handled(belowDeepest: ListState['belowDeepest']): ListState {
	return {
		memory: { seen: new Map([['b', NOW - 2_000], ['a', NOW - 1_000]]), mirror: ['a', 'b'] },
		lag: 0,
		floorMs: NOW - 60_000,
		paging: { cap: 1, served: 1 },
		...(belowDeepest !== undefined ? { belowDeepest } : {}),
	};
}

/** Saved as n8n saves it (JSON) and read back. */
const roundTrip = (list: ListState) => parseListState(JSON.parse(JSON.stringify(listToJson(SCOPE, list))), SCOPE, NOW, 100);

describe('Poll Trigger: the saved list state (state.ts)', () => {
	it('keeps what the check saw below the deepest record: a history record, or the list\'s end', () => {
		expect(roundTrip(handled({ deepest: 'b', reference: 'h' }))?.belowDeepest).toEqual({ deepest: 'b', reference: 'h' });
		expect(roundTrip(handled({ deepest: 'b' }))?.belowDeepest).toEqual({ deepest: 'b' });
	});

	it('drops it when its record is no longer mirrored, and reads a note saved with the created_at it once kept', () => {
		expect(roundTrip(handled({ deepest: 'gone', reference: 'h' }))?.belowDeepest).toBeUndefined();
		const saved = { ...listToJson(SCOPE, handled(undefined)), belowDeepest: { deepest: 'b', reference: 'h', createdMs: NOW - 90_000 } };
		expect(parseListState(saved, SCOPE, NOW, 100)?.belowDeepest).toEqual({ deepest: 'b', reference: 'h' });
	});

	it('keeps a search\'s second round and the rank it steps down from (searchMet, searchBase), and drops a base that is no rank', () => {
		const searching: ListState = { ...handled(undefined), lag: null, searchFrom: 14, searchMet: true, searchBase: 9 };
		expect(roundTrip(searching)).toMatchObject({ lag: null, searchFrom: 14, searchMet: true, searchBase: 9 });
		expect(roundTrip({ ...searching, searchBase: -1 })?.searchBase).toBeUndefined();
	});

	it('keeps where the scan of the transfers pending at the start stands, and that its end is to be read again (pendingScan.ending)', () => {
		const scope = 'api|';
		const stream = (pendingScan: StreamState['pendingScan']): StreamState => ({ ...handled(undefined), scope, originMs: NOW - 60_000, pending: new Map(), failed: new Map(), ...(pendingScan ? { pendingScan } : {}) });
		const again = (state: StreamState) => parseState(JSON.parse(JSON.stringify(stateToJson(state))), scope, NOW, 100);
		expect(again(stream({ page: 3, size: 1, ending: true }))?.pendingScan).toEqual({ page: 3, size: 1, ending: true });
		expect(again(stream({ page: 3, size: 1 }))?.pendingScan).toEqual({ page: 3, size: 1 });
		expect(again(stream({ page: 0, size: 1, ending: true }))?.pendingScan).toBeUndefined();
	});

	it('keeps a paused check\'s bounds as the facts they are, and drops a bound whose records are no longer mirrored or that does not parse', () => {
		const list = { ...handled(undefined), memory: { seen: new Map([['c', NOW - 3_000], ['b', NOW - 2_000], ['a', NOW - 1_000]]), mirror: ['a', 'b', 'c'] } };
		const check = { good: 'a', bad: { reference: 'c', anchor: 'a', span: 4 }, shallow: { reference: 'b', anchor: 'a', span: 2 } };
		expect(roundTrip({ ...list, check })?.check).toEqual(check);
		expect(roundTrip({ ...list, check: { ...check, bad: { reference: 'c', anchor: 'gone', span: 4 } } })?.check).toEqual({ good: 'a' });
		const saved = { ...listToJson(SCOPE, list), check: { good: 'a', bad: { reference: 'c', anchor: 'a', span: 1.5 }, shallow: 'b' } };
		expect(parseListState(saved, SCOPE, NOW, 100)?.check).toEqual({ good: 'a' });
		// A shallower bound only beside a deeper one.
		expect(roundTrip({ ...list, check: { good: 'a', shallow: check.shallow } })?.check).toEqual({ good: 'a' });
	});
});
