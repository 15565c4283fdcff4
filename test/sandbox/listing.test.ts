import { cursorSlice, newestFirstPage, pageSlice, type ListPolicy, type PageQuery } from '../../sandbox/state/listing';
import type { Stamped } from '../../sandbox/state/sorted';
import { compareNewestFirst } from '../../sandbox/state/sorted';

type Item = Stamped & { odd: boolean; written: number };

/** The lists' rules written the slow, obvious way: order everything, filter by the cursor, then cut the page. */
function oracle(items: Item[], keep: (item: Item) => boolean, q: PageQuery, policy: ListPolicy): Item[] {
	const ordered = items.filter(keep).sort(policy.order === 'recorded' ? (a, b) => b.written - a.written : compareNewestFirst);
	const cap = (n: number) => Math.min(n, policy.pageCap ?? Infinity);
	if (q.cursor_created_at) {
		const ms = Date.parse(q.cursor_created_at);
		const id = policy.cursorIds ? q.cursor_id : undefined;
		const after = ordered.filter((r) => r.createdAtMs < ms || (r.createdAtMs === ms && id != null && r.id < id));
		return after.slice(0, cap(q.limit ?? 20));
	}
	const size = cap(q.page_size ?? q.limit ?? 20);
	return ordered.slice(((q.page ?? 1) - 1) * size, (q.page ?? 1) * size);
}

/** newestFirstPage is the fast path of the transaction lists: it must give exactly what the oracle gives. */
describe('newestFirstPage', () => {
	// Ascending by (createdAtMs, id), with many equal timestamps so that cursor ties matter; written in another order
	// (every fifth record written late, so 'recorded' order differs from 'created').
	const base = Array.from({ length: 400 }, (_, i) => ({
		id: `tx-${String((i * 7919) % 1000).padStart(4, '0')}`,
		createdAtMs: Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 1000,
		odd: i % 3 === 1,
		written: i % 5 === 0 ? 1000 + i : i,
	}));
	const ascending: Item[] = [...base].sort((a, b) => -compareNewestFirst(a, b));
	const written: Item[] = [...base].sort((a, b) => a.written - b.written);
	const ledger = { ascending, written };
	const iso = (ms: number) => new Date(ms).toISOString();
	const filters = [() => true, (r: { odd: boolean }) => r.odd, () => false];
	const policies: ListPolicy[] = [
		{ order: 'created', pageCap: null, pageOffsets: 'served', cursorIds: true },
		{ order: 'created', pageCap: null, pageOffsets: 'served', cursorIds: false },
		{ order: 'created', pageCap: 6, pageOffsets: 'served', cursorIds: true },
		{ order: 'recorded', pageCap: null, pageOffsets: 'served', cursorIds: true },
		{ order: 'recorded', pageCap: 6, pageOffsets: 'served', cursorIds: false },
	];

	test.each(policies)('page mode: every page of every size, with and without a filter (%o)', (policy) => {
		for (const keep of filters) {
			for (const size of [1, 7, 100, 500]) {
				for (let page = 1; page <= Math.ceil(records(keep) / Math.min(size, policy.pageCap ?? size)) + 1; page++) {
					const q = { page, page_size: size };
					expect(newestFirstPage(ledger, keep, q, policy)).toEqual(oracle(base, keep, q, policy));
				}
			}
		}
	});

	test.each(policies)('cursor mode: a cursor at every record, with and without cursor_id, and past both ends (%o)', (policy) => {
		for (const keep of filters) {
			for (const r of ascending) {
				for (const q of [
					{ cursor_created_at: iso(r.createdAtMs), cursor_id: r.id, limit: 10 },
					{ cursor_created_at: iso(r.createdAtMs), limit: 10 },
				]) {
					expect(newestFirstPage(ledger, keep, q, policy)).toEqual(oracle(base, keep, q, policy));
				}
			}
			for (const ms of [0, Date.UTC(2030, 0, 1)]) {
				const q = { cursor_created_at: iso(ms), limit: 50 };
				expect(newestFirstPage(ledger, keep, q, policy)).toEqual(oracle(base, keep, q, policy));
			}
			expect(newestFirstPage(ledger, keep, { limit: 5 }, policy)).toEqual(oracle(base, keep, { limit: 5 }, policy));
		}
	});

	function records(keep: (item: Item) => boolean): number {
		return base.filter(keep).length;
	}
});

describe('cursorSlice and pageSlice (accounts, members)', () => {
	const newestFirst = Array.from({ length: 30 }, (_, i) => ({ id: `a-${String(99 - i).padStart(3, '0')}`, createdAtMs: 1_000_000 - Math.floor(i / 4) * 1000 }));

	test('a cap bounds a cursor page and a numbered page; the offset of page N uses the capped size', () => {
		const capped: ListPolicy = { order: 'created', pageCap: 4, pageOffsets: 'served', cursorIds: true };
		expect(cursorSlice(newestFirst, { limit: 10 }, capped)).toEqual(newestFirst.slice(0, 4));
		const last = newestFirst[3];
		expect(cursorSlice(newestFirst, { limit: 10, cursor_created_at: new Date(last.createdAtMs).toISOString(), cursor_id: last.id }, capped)).toEqual(newestFirst.slice(4, 8));
		expect(pageSlice(newestFirst, { page: 3, page_size: 10 }, capped)).toEqual(newestFirst.slice(8, 12));
		expect(pageSlice(newestFirst, { page: 3, page_size: 10 }, { ...capped, pageCap: null })).toEqual(newestFirst.slice(20, 30));
	});
});
