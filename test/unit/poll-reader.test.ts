/**
 * The Poll Trigger's reader: whether a page shorter than asked is where the bank's list ends, against a list served
 * by page number from an array (newest first), with a page cap and records landing between two reads.
 */
import type { INode } from 'n8n-workflow';

import { Budget } from '../../nodes/BaasPollTrigger/budget';
import type { ReadRun } from '../../nodes/BaasPollTrigger/reader';
import { ListReader } from '../../nodes/BaasPollTrigger/reader';

const node = { name: 'BaaS (Polling) Trigger', type: 'n8n-nodes-baas.baasPollTrigger', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;

/** A bank list of `count` records (r0 newest) serving at most `cap` a page; `land` records are written at the top after each read. */
function bank(count: number, cap: number, land = 0, nullAt: number[] = []) {
	const list: Array<{ reference_number: string; created_at: string } | null> = Array.from({ length: count }, (_, i) =>
		nullAt.includes(i) ? null : { reference_number: `r${i}`, created_at: new Date(Date.UTC(2026, 1, 1, 0, 0, count - i)).toISOString() },
	);
	let landed = 0;
	const pages: Array<{ page: number; size: number }> = [];
	const request = (async (_context: unknown, _operation: string, query: { page: number; page_size: number }) => {
		const size = Math.min(query.page_size, cap);
		pages.push({ page: query.page, size });
		const served = list.slice((query.page - 1) * size, query.page * size);
		for (let i = 0; i < land; i++) list.unshift({ reference_number: `new${landed++}`, created_at: new Date(Date.UTC(2026, 1, 1, 1)).toISOString() });
		return served;
	}) as unknown as ReadRun['request'];
	const run: ReadRun = { request, context: { getNode: () => node } as unknown as ReadRun['context'], budget: new Budget(20, node), progressed: false, malformed: 0, served: 0 };
	return { reader: new ListReader(run, { filters: {}, variant: 'api' }, { cap: 100, served: 0 }), pages };
}

describe('Poll Trigger reader: a short page', () => {
	it('is not the end when the bank caps its pages, even with a record landing at the top between the two reads', async () => {
		const { reader, pages } = bank(300, 84, 1);
		const first = await reader.read({ page: 1, size: 100 });
		expect(first.slots).toHaveLength(84);
		expect(await reader.endsList(first, 0, 60_000)).toBe(false);
		expect(reader.cap).toBe(84);
		expect(pages).toEqual([
			{ page: 1, size: 84 },
			{ page: 2, size: 84 },
		]);
	});

	it('is the end when the next page holds only its own records, pushed down by records written above', async () => {
		const { reader } = bank(30, 84, 2);
		const first = await reader.read({ page: 1, size: 50 });
		expect(first.slots).toHaveLength(30);
		expect(await reader.endsList(first, 0, 60_000)).toBe(true);
		expect(reader.cap).toBe(100);
	});

	it('below the first page, is the end when the first page asked the same size is full (not a cap of what it served)', async () => {
		const { reader, pages } = bank(320, 500);
		const last = await reader.read({ page: 4, size: 100 });
		expect(last.slots).toHaveLength(20);
		expect(await reader.endsList(last, 0, 60_000)).toBe(true);
		expect(reader.cap).toBe(100);
		expect(pages[1]).toEqual({ page: 1, size: 100 });
	});

	it('below the first page, is a cap when the first page asked the same size is short too', async () => {
		const { reader } = bank(300, 84);
		const third = await reader.read({ page: 3, size: 100 });
		expect(third.slots).toHaveLength(84);
		expect(await reader.endsList(third, 0, 60_000)).toBe(false);
		expect(reader.cap).toBe(84);
	});

	it('is the end when the next page holds only its own entries pushed down, a null entry among them', async () => {
		// Three records land at the top between the two reads (one after each): the next page shows the same three.
		const pushed = bank(3, 84, 3, [1]);
		const top = await pushed.reader.read({ page: 1, size: 100 });
		expect(top.slots).toHaveLength(3);
		expect(await pushed.reader.endsList(top, 0, 60_000)).toBe(true);
		expect(pushed.reader.cap).toBe(100);
		expect(pushed.pages).toEqual([
			{ page: 1, size: 84 },
			{ page: 2, size: 3 },
		]);
	});

	it('is the end when the next page is empty', async () => {
		const { reader } = bank(30, 84);
		const first = await reader.read({ page: 1, size: 50 });
		expect(await reader.endsList(first, 0, 60_000)).toBe(true);
	});
});
