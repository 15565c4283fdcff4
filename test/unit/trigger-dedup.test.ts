import { deliveryKey, MAX_REMEMBERED, prune, RecentDeliveries } from '../../nodes/BaasTrigger/dedup';

const MINUTE = 60_000;

describe('deliveryKey', () => {
	test('is the kind plus the record reference (reference_number first, then reference)', () => {
		expect(deliveryKey('COLLECTION_SUCCESS', { reference_number: 'R1', reference: 'S1' })).toBe('COLLECTION_SUCCESS:R1');
		expect(deliveryKey('COLLECTION_SUCCESS', { reference: 'S1' })).toBe('COLLECTION_SUCCESS:S1');
		expect(deliveryKey('TRANSFER_SUCCESS', { reference_number: 'R1' })).not.toBe(deliveryKey('TRANSFER_FAILED', { reference_number: 'R1' }));
	});

	test('falls back to the delivery id, then to nothing', () => {
		expect(deliveryKey('TRANSFER_FAILED', { amount: '1.00' }, 'd-1')).toBe('TRANSFER_FAILED#delivery:d-1');
		expect(deliveryKey('TRANSFER_FAILED', null)).toBeUndefined();
		expect(deliveryKey('TRANSFER_FAILED', { reference_number: '' })).toBeUndefined();
	});
});

describe('prune', () => {
	test('keeps only what was seen inside the window', () => {
		const now = 10 * MINUTE;
		const seen = { old: now - 61 * MINUTE, edge: now - 60 * MINUTE, fresh: now - 59 * MINUTE };
		expect(prune(seen, now, 60 * MINUTE)).toEqual({ fresh: now - 59 * MINUTE });
	});

	test('ignores what is not a key map', () => {
		expect(prune(undefined, 0, MINUTE)).toEqual({});
		expect(prune(['a'], 0, MINUTE)).toEqual({});
		expect(prune({ a: 'yesterday', b: 5 }, 10, MINUTE)).toEqual({ b: 5 });
	});

	test(`keeps at most ${MAX_REMEMBERED} keys, the newest`, () => {
		const seen = Object.fromEntries(Array.from({ length: MAX_REMEMBERED + 10 }, (_, i) => [`k${i}`, i]));
		const kept = prune(seen, MAX_REMEMBERED + 10, 10 * MAX_REMEMBERED);
		expect(Object.keys(kept)).toHaveLength(MAX_REMEMBERED);
		expect(kept.k0).toBeUndefined();
		expect(kept[`k${MAX_REMEMBERED + 9}`]).toBeDefined();
	});
});

describe('RecentDeliveries', () => {
	test('knows a key within the window, forgets it after, and keeps triggers apart', () => {
		const memory = new RecentDeliveries();
		memory.remember('wf:a:webhook', 'K', 0);
		expect(memory.has('wf:a:webhook', 'K', 30 * MINUTE, 60 * MINUTE)).toBe(true);
		expect(memory.has('wf:a:manual', 'K', 30 * MINUTE, 60 * MINUTE)).toBe(false);
		expect(memory.has('wf:a:webhook', 'K', 61 * MINUTE, 60 * MINUTE)).toBe(false);
	});

	test('forget() empties one trigger or all', () => {
		const memory = new RecentDeliveries();
		memory.remember('a', 'K', 0);
		memory.remember('b', 'K', 0);
		memory.forget('a');
		expect(memory.has('a', 'K', 1, MINUTE)).toBe(false);
		expect(memory.has('b', 'K', 1, MINUTE)).toBe(true);
		memory.forget();
		expect(memory.has('b', 'K', 1, MINUTE)).toBe(false);
	});
});
