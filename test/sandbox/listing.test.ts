import { newestFirst, newestFirstPage, pageOrCursor } from '../../sandbox/state/listing';
import type { Stamped } from '../../sandbox/state/sorted';
import { compareNewestFirst } from '../../sandbox/state/sorted';

/** newestFirstPage is the fast path of the transaction lists: it must give exactly what filtering, then paging, gives. */
describe('newestFirstPage', () => {
	// Ascending by (createdAtMs, id), with many equal timestamps so that cursor ties matter.
	const records: Array<Stamped & { odd: boolean }> = Array.from({ length: 400 }, (_, i) => ({
		id: `tx-${String((i * 7919) % 1000).padStart(4, '0')}`,
		createdAtMs: Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 1000,
		odd: i % 3 === 1,
	})).sort((a, b) => -compareNewestFirst(a, b));
	const iso = (ms: number) => new Date(ms).toISOString();
	const filters = [() => true, (r: { odd: boolean }) => r.odd, () => false];

	test('page mode: every page of every size, with and without a filter', () => {
		for (const keep of filters) {
			for (const size of [1, 7, 100, 500]) {
				for (let page = 1; page <= Math.ceil(records.length / size) + 1; page++) {
					const q = { page, page_size: size };
					expect(newestFirstPage(records, keep, q)).toEqual(pageOrCursor(newestFirst(records, keep), q));
				}
			}
		}
	});

	test('cursor mode: a cursor at every record, with and without cursor_id, and past both ends', () => {
		for (const keep of filters) {
			for (const r of records) {
				for (const q of [
					{ cursor_created_at: iso(r.createdAtMs), cursor_id: r.id, limit: 10 },
					{ cursor_created_at: iso(r.createdAtMs), limit: 10 },
				]) {
					expect(newestFirstPage(records, keep, q)).toEqual(pageOrCursor(newestFirst(records, keep), q));
				}
			}
			for (const ms of [0, Date.UTC(2030, 0, 1)]) {
				const q = { cursor_created_at: iso(ms), limit: 50 };
				expect(newestFirstPage(records, keep, q)).toEqual(pageOrCursor(newestFirst(records, keep), q));
			}
			expect(newestFirstPage(records, keep, { limit: 5 })).toEqual(pageOrCursor(newestFirst(records, keep), { limit: 5 }));
		}
	});
});
