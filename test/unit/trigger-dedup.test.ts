import { asStore, deliveryKey, emptyStore, GENERATION_SIZE, RecentDeliveries, remember, wasSeen } from '../../nodes/BaasTrigger/dedup';

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
		expect(store.previous?.keys).toHaveProperty('old');
		expect(wasSeen(store, 'new', 20 * MINUTE, 10 * MINUTE)).toBe(true);
		remember(store, 'later', 40 * MINUTE, 10 * MINUTE);
		expect(store.previous).toBeUndefined();
		expect(wasSeen(store, 'new', 40 * MINUTE, 10 * MINUTE)).toBe(false);
	});

	test(`holds at most ${2 * GENERATION_SIZE} keys and always the last ${GENERATION_SIZE}`, () => {
		const store = emptyStore(0);
		const total = 3 * GENERATION_SIZE + 7;
		for (let i = 0; i < total; i++) remember(store, `k${i}`, 0, 60 * MINUTE);
		const kept = Object.keys(store.current.keys).length + Object.keys(store.previous?.keys ?? {}).length;
		expect(kept).toBeLessThanOrEqual(2 * GENERATION_SIZE);
		for (let i = total - GENERATION_SIZE; i < total; i++) expect(wasSeen(store, `k${i}`, 0, 60 * MINUTE)).toBe(true);
		expect(wasSeen(store, 'k0', 0, 60 * MINUTE)).toBe(false);
	});

	test('a clock stepping backwards keeps keys', () => {
		const store = emptyStore(10 * MINUTE);
		remember(store, 'K', 10 * MINUTE, 60 * MINUTE);
		expect(wasSeen(store, 'K', 5 * MINUTE, 60 * MINUTE)).toBe(true);
	});

	test('what is not a store (nothing yet, or an older version\'s data) reads as none', () => {
		expect(asStore(undefined)).toBeUndefined();
		expect(asStore({ 'COLLECTION_SUCCESS:R1': 5 })).toBeUndefined();
		const store = emptyStore(0);
		expect(asStore(JSON.parse(JSON.stringify(store)))).toEqual(store);
	});

	test('stays small as JSON: about 20 bytes per key', () => {
		const store = emptyStore(0);
		for (let i = 0; i < 2 * GENERATION_SIZE; i++) remember(store, deliveryKey('COLLECTION_SUCCESS', { reference_number: `R${i}` }, body('')), i * 100, 60 * MINUTE);
		expect(JSON.stringify(store).length / (2 * GENERATION_SIZE)).toBeLessThan(22);
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
