import { deliveryKey } from '../../nodes/BaasTrigger/deliveryKey';
import { MEMORY_GENERATION_SIZE, RecentDeliveries } from '../../nodes/BaasTrigger/recentDeliveries';
import { asStore, emptyStore, forgetKey, GENERATION_SIZE, keysIn, mergeStores, remember, wasSeen } from '../../nodes/BaasTrigger/seenStore';

const MINUTE = 60_000;
const body = (text: string) => Buffer.from(text);

describe('deliveryKey', () => {
	test('is the kind plus the record reference (reference_number first, then reference), whatever the bytes', () => {
		const a = deliveryKey('COLLECTION_SUCCESS', { reference_number: 'R1', reference: 'S1' }, body('one'));
		expect(a).toBe(deliveryKey('COLLECTION_SUCCESS', { reference_number: 'R1' }, body('two')));
		expect(deliveryKey('COLLECTION_SUCCESS', { reference: 'S1' }, body('x'))).not.toBe(a);
		expect(deliveryKey('TRANSFER_SUCCESS', { reference_number: 'R1' }, body('x'))).not.toBe(deliveryKey('TRANSFER_FAILED', { reference_number: 'R1' }, body('x')));
	});

	test('without a reference it is a hash of the signed bytes: same bytes same key, other bytes another key', () => {
		const signed = body('{"event":"TRANSFER_FAILED","data":{"amount":"1.00"}}');
		expect(deliveryKey('TRANSFER_FAILED', { amount: '1.00' }, signed)).toBe(deliveryKey('TRANSFER_FAILED', { amount: '1.00' }, Buffer.from(signed)));
		expect(deliveryKey('TRANSFER_FAILED', { amount: '1.00' }, signed)).not.toBe(deliveryKey('TRANSFER_FAILED', { amount: '1.00' }, body(`${signed.toString()} `)));
		expect(deliveryKey('TRANSFER_FAILED', null, signed)).toBe(deliveryKey('TRANSFER_FAILED', { reference_number: '' }, signed));
	});

	test('is short (11 characters) and never looks like an array index, so saved key order is insertion order', () => {
		const key = deliveryKey('COLLECTION_SUCCESS', { reference_number: 'R1' }, body(''));
		expect(key).toMatch(/^[\w-]{11}$/);
	});
});

describe('the seen store', () => {
	test('knows a key within the window and not after it', () => {
		const store = emptyStore(0);
		remember(store, 'K', 0, 60 * MINUTE);
		expect(wasSeen(store, 'K', 59 * MINUTE, 60 * MINUTE)).toBe(true);
		expect(wasSeen(store, 'K', 60 * MINUTE, 60 * MINUTE)).toBe(false);
		expect(wasSeen(store, 'other', 1, 60 * MINUTE)).toBe(false);
	});

	test('keeps the previous generation for one more window, then drops it whole', () => {
		const store = emptyStore(0);
		remember(store, 'old', 0, 10 * MINUTE);
		remember(store, 'new', 15 * MINUTE, 10 * MINUTE);
		expect(store.previous).toBeDefined();
		expect(wasSeen({ current: store.previous! }, 'old', 15 * MINUTE, 20 * MINUTE)).toBe(true);
		expect(wasSeen(store, 'new', 20 * MINUTE, 10 * MINUTE)).toBe(true);
		remember(store, 'later', 40 * MINUTE, 10 * MINUTE);
		expect(store.previous).toBeUndefined();
		expect(wasSeen(store, 'new', 40 * MINUTE, 10 * MINUTE)).toBe(false);
	});

	test(`holds at most ${2 * GENERATION_SIZE} keys and always the last ${GENERATION_SIZE}`, () => {
		const store = emptyStore(0);
		const total = 3 * GENERATION_SIZE + 7;
		for (let i = 0; i < total; i++) remember(store, `k${i}`, 0, 60 * MINUTE);
		const kept = keysIn(store.current).length + keysIn(store.previous).length;
		expect(kept).toBeLessThanOrEqual(2 * GENERATION_SIZE);
		for (let i = total - GENERATION_SIZE; i < total; i++) expect(wasSeen(store, `k${i}`, 0, 60 * MINUTE)).toBe(true);
		expect(wasSeen(store, 'k0', 0, 60 * MINUTE)).toBe(false);
	});

	test('a clock stepping backwards keeps keys', () => {
		const store = emptyStore(10 * MINUTE);
		remember(store, 'K', 10 * MINUTE, 60 * MINUTE);
		expect(wasSeen(store, 'K', 5 * MINUTE, 60 * MINUTE)).toBe(true);
	});

	test('what is not a store (nothing yet, or data of another shape) reads as none', () => {
		expect(asStore(undefined)).toBeUndefined();
		expect(asStore({ 'COLLECTION_SUCCESS:R1': 5 })).toBeUndefined();
		expect(asStore({ current: { start: 0, keys: 'not whole records' } })).toBeUndefined();
		const store = emptyStore(0);
		remember(store, 'K', 0, 60 * MINUTE);
		expect(asStore(JSON.parse(JSON.stringify(store)))).toEqual(store);
	});

	test('the previous version\'s saved form (one property per key) is read and kept in the packed form', () => {
		const key = deliveryKey('COLLECTION_SUCCESS', { reference_number: 'R1' }, body(''));
		const saved = { current: { start: 100, keys: { [key]: 30 }, count: 1 }, previous: { start: 40, keys: { K2: 5 }, count: 1 } };
		const store = asStore(saved)!;
		expect(typeof store.current.keys).toBe('string');
		expect(keysIn(store.current)).toEqual([key]);
		expect(wasSeen(store, key, 130_000 + 59 * MINUTE, 60 * MINUTE)).toBe(true);
		expect(wasSeen(store, key, 130_000 + 60 * MINUTE, 60 * MINUTE)).toBe(false);
		expect(wasSeen(store, 'K2', 45_000, 60 * MINUTE)).toBe(true);
	});

	test('forgetKey lets one key go and keeps the others', () => {
		const store = emptyStore(0);
		for (const key of ['A', 'B', 'C']) remember(store, key, 0, 60 * MINUTE);
		forgetKey(store, 'B');
		expect(['A', 'B', 'C'].map((key) => wasSeen(store, key, 1, 60 * MINUTE))).toEqual([true, false, true]);
	});

	test('a key is found only where a record starts, not across two records', () => {
		const store = emptyStore(0);
		const a = 'AAAAAAAAAAA';
		remember(store, a, 0, 60 * MINUTE);
		remember(store, 'BBBBBBBBBBB', 0, 60 * MINUTE);
		// Each record is the key and 4 offset digits ("AAAA" at second 0), so the saved string holds
		// "AAAAAAAABBB" and "AAAABBBBBBB" across the boundary of the two records.
		expect(store.current.keys).toContain('AAAAAAAABBB');
		expect(wasSeen(store, a, 1, 60 * MINUTE)).toBe(true);
		expect(wasSeen(store, 'AAAAAAAABBB', 1, 60 * MINUTE)).toBe(false);
		expect(wasSeen(store, 'AAAABBBBBBB', 1, 60 * MINUTE)).toBe(false);
	});

	test(`stays small as JSON: 15 bytes per key, at most ${(2 * GENERATION_SIZE * 15) / 1000} KB`, () => {
		const store = emptyStore(0);
		for (let i = 0; i < 3 * GENERATION_SIZE; i++) remember(store, deliveryKey('COLLECTION_SUCCESS', { reference_number: `R${i}` }, body('')), i * 100, 60 * MINUTE);
		expect(JSON.stringify(store).length).toBeLessThan(2 * GENERATION_SIZE * 15 + 100);
	});
});

describe('RecentDeliveries', () => {
	test('knows a key within the window, forgets it after, and keeps triggers apart', () => {
		const memory = new RecentDeliveries();
		memory.remember('wf:a:webhook', 'K', 0, 60 * MINUTE);
		expect(memory.has('wf:a:webhook', 'K', 30 * MINUTE, 60 * MINUTE)).toBe(true);
		expect(memory.has('wf:a:manual', 'K', 30 * MINUTE, 60 * MINUTE)).toBe(false);
		expect(memory.has('wf:a:webhook', 'K', 61 * MINUTE, 60 * MINUTE)).toBe(false);
	});

	test(`holds the last ${MEMORY_GENERATION_SIZE} keys of a trigger at least, ${2 * MEMORY_GENERATION_SIZE} at most`, () => {
		const memory = new RecentDeliveries();
		const total = 3 * MEMORY_GENERATION_SIZE + 7;
		for (let i = 0; i < total; i++) memory.remember('a', `k${i}`, 0, 60 * MINUTE);
		for (let i = total - MEMORY_GENERATION_SIZE; i < total; i++) expect(memory.has('a', `k${i}`, 0, 60 * MINUTE)).toBe(true);
		expect(memory.has('a', 'k0', 0, 60 * MINUTE)).toBe(false);
	});

	test('release() lets one key go', () => {
		const memory = new RecentDeliveries();
		memory.remember('a', 'K', 0, MINUTE);
		memory.remember('a', 'L', 0, MINUTE);
		memory.release('a', 'K');
		expect(memory.has('a', 'K', 1, MINUTE)).toBe(false);
		expect(memory.has('a', 'L', 1, MINUTE)).toBe(true);
	});

	test('forget() empties one trigger or all', () => {
		const memory = new RecentDeliveries();
		memory.remember('a', 'K', 0, MINUTE);
		memory.remember('b', 'K', 0, MINUTE);
		memory.forget('a');
		expect(memory.has('a', 'K', 1, MINUTE)).toBe(false);
		expect(memory.has('b', 'K', 1, MINUTE)).toBe(true);
		memory.forget();
		expect(memory.has('b', 'K', 1, MINUTE)).toBe(false);
	});
});

/** A store as n8n hands it to a delivery: a fresh copy of what the database holds. */
const loadedFrom = (saved: unknown) => asStore(JSON.parse(JSON.stringify(saved)))!;

describe('static data written whole, by deliveries that loaded it at the same time', () => {
	test('mergeStores: the union of both, each key with its later second, inside the window, the most recent kept', () => {
		const a = emptyStore(0);
		const b = emptyStore(0);
		remember(a, 'k-a', 1_000, MINUTE);
		remember(b, 'k-b', 2_000, MINUTE);
		remember(b, 'k-a', 3_000, MINUTE);
		const merged = mergeStores(a, b, 4_000, MINUTE);
		expect(keysIn(merged.current).length).toBe(2);
		expect(wasSeen(merged, 'k-a', 4_000, MINUTE) && wasSeen(merged, 'k-b', 4_000, MINUTE)).toBe(true);
		// k-a's later second (3 s) counts: at 62.5 s it is still inside a one-minute window.
		expect(wasSeen(mergeStores(a, b, 62_500, MINUTE), 'k-a', 62_500, MINUTE)).toBe(true);
		expect(wasSeen(mergeStores(a, b, 62_500, MINUTE), 'k-b', 62_500, MINUTE)).toBe(false);

		const many = emptyStore(0);
		const others = emptyStore(0);
		for (let i = 0; i < 2 * GENERATION_SIZE; i++) remember(i % 2 ? many : others, `key-${i}`, i * 10, 60 * MINUTE);
		const capped = mergeStores(many, others, 2 * GENERATION_SIZE * 10, 60 * MINUTE);
		expect(keysIn(capped.previous).length + keysIn(capped.current).length).toBe(2 * GENERATION_SIZE);
		expect(wasSeen(capped, 'key-0', 2 * GENERATION_SIZE * 10, 60 * MINUTE)).toBe(true);
	});

	test('two deliveries that loaded the same data: the later one writes both keys (no key lost)', () => {
		const memory = new RecentDeliveries();
		const saved = emptyStore(0);
		// Each delivery checks and records its key in one synchronous step, after n8n loaded static data for it.
		const first = memory.reconcile('wf:node', loadedFrom(saved), 1_000, MINUTE);
		remember(first, 'k-1', 1_000, MINUTE);
		memory.wrote('wf:node', first);
		const second = memory.reconcile('wf:node', loadedFrom(saved), 1_100, MINUTE);
		remember(second, 'k-2', 1_100, MINUTE);
		memory.wrote('wf:node', second);
		expect(wasSeen(second, 'k-1', 1_200, MINUTE) && wasSeen(second, 'k-2', 1_200, MINUTE)).toBe(true);
		// Without the union, the second delivery's save would have erased k-1.
		const unjoined = loadedFrom(saved);
		remember(unjoined, 'k-2', 1_100, MINUTE);
		expect(wasSeen(unjoined, 'k-1', 1_200, MINUTE)).toBe(false);
	});

	test("what another process saved is taken in, and this process's keys are written back after being overwritten", () => {
		const here = new RecentDeliveries();
		const mine = here.reconcile('wf:node', emptyStore(0), 1_000, MINUTE);
		remember(mine, 'mine', 1_000, MINUTE);
		here.wrote('wf:node', mine);
		// Another webhook process saved last, from data that did not hold "mine".
		const theirs = emptyStore(0);
		remember(theirs, 'theirs', 1_500, MINUTE);
		const next = here.reconcile('wf:node', loadedFrom(theirs), 2_000, MINUTE);
		expect(wasSeen(next, 'mine', 2_000, MINUTE) && wasSeen(next, 'theirs', 2_000, MINUTE)).toBe(true);
	});

	test('a key released after a failed start leaves the written store too, so the retry is let through', () => {
		const memory = new RecentDeliveries();
		const store = memory.reconcile('wf:node', emptyStore(0), 1_000, MINUTE);
		remember(store, 'failed', 1_000, MINUTE);
		memory.wrote('wf:node', store);
		memory.release('wf:node', 'failed');
		expect(wasSeen(memory.reconcile('wf:node', emptyStore(0), 2_000, MINUTE), 'failed', 2_000, MINUTE)).toBe(false);
	});
});
