import { createHash } from 'node:crypto';

/**
 * Duplicate-delivery memory of the trigger: which events were let through recently, so a second delivery of
 * one event (bank retry, network hiccup, replay of captured bytes) starts nothing.
 *
 * Cost per delivery is constant, whatever the memory holds: one hash, two lookups, one insert, and now and
 * then dropping a whole generation by reference. Nothing is sorted, copied or scanned per delivery.
 */

/** Keys per generation; two generations are kept, so at most 2 × this many (about 20 bytes each as JSON). */
export const GENERATION_SIZE = 2500;
export const MAX_REMEMBERED = 2 * GENERATION_SIZE;

/** 11 base64url characters = 66 bits of SHA-256: a false match is below 1e-12 even at 5,000 keys. */
const SHORT_KEY_LENGTH = 11;

/**
 * A generation of keys: short key → seconds after `start` it was let through. Object keys keep insertion
 * order in JSON (base64url of 11 characters is never a number-like key), so the saved form stays compact.
 */
export interface Generation {
	start: number;
	keys: Record<string, number>;
	count: number;
}

/** What is kept per trigger (in the node's static data, and in process memory): the current and the previous generation. */
export interface SeenStore {
	current: Generation;
	previous?: Generation;
}

/**
 * The identity of an event, as a short hash: its kind and the reference of its record; when the record has
 * none, its kind and the signed bytes. Never a header: X-Service-Delivery-Id is not signed, so a replay could
 * change it at will.
 */
export function deliveryKey(kind: string, data: unknown, signedBody: Buffer): string {
	const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
	const reference = record.reference_number ?? record.reference;
	const hash = createHash('sha256');
	if ((typeof reference === 'string' && reference !== '') || typeof reference === 'number') {
		hash.update(`${kind}\u0000ref\u0000${String(reference)}`);
	} else {
		hash.update(`${kind}\u0000body\u0000`).update(signedBody);
	}
	return hash.digest('base64url').slice(0, SHORT_KEY_LENGTH);
}

function isGeneration(value: unknown): value is Generation {
	if (typeof value !== 'object' || value === null) return false;
	const g = value as Partial<Generation>;
	return typeof g.start === 'number' && typeof g.count === 'number' && typeof g.keys === 'object' && g.keys !== null;
}

/** The store in `value`, or undefined when it holds none (first delivery, or data of an older version). */
export function asStore(value: unknown): SeenStore | undefined {
	if (typeof value !== 'object' || value === null || !isGeneration((value as SeenStore).current)) return undefined;
	const store = value as SeenStore;
	if (store.previous !== undefined && !isGeneration(store.previous)) delete store.previous;
	return store;
}

function newGeneration(nowSeconds: number): Generation {
	return { start: nowSeconds, keys: {}, count: 0 };
}

export function emptyStore(now: number): SeenStore {
	return { current: newGeneration(Math.floor(now / 1000)) };
}

function seenIn(generation: Generation | undefined, key: string, nowSeconds: number, windowSeconds: number): boolean {
	const offset = generation?.keys[key];
	// A clock that stepped backwards gives a negative age: still inside the window.
	return offset !== undefined && nowSeconds - (generation!.start + offset) < windowSeconds;
}

/** True when `key` was let through less than `windowMs` ago. */
export function wasSeen(store: SeenStore, key: string, now: number, windowMs: number): boolean {
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(windowMs / 1000);
	return seenIn(store.current, key, nowSeconds, windowSeconds) || seenIn(store.previous, key, nowSeconds, windowSeconds);
}

/**
 * Records `key`. A generation older than the window, or full, becomes the previous one and the one before it
 * is dropped whole: every key let through in the last window is kept unless more than GENERATION_SIZE
 * arrived since (a busy account keeps at least the last GENERATION_SIZE events).
 */
export function remember(store: SeenStore, key: string, now: number, windowMs: number): void {
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(windowMs / 1000);
	if (nowSeconds - store.current.start >= windowSeconds || store.current.count >= GENERATION_SIZE) {
		const current = store.current;
		store.previous = nowSeconds - current.start >= 2 * windowSeconds ? undefined : current;
		if (store.previous === undefined) delete store.previous;
		store.current = newGeneration(nowSeconds);
	}
	const current = store.current;
	if (current.keys[key] === undefined) current.count += 1;
	current.keys[key] = Math.max(0, nowSeconds - current.start);
}

/** Forgets `key` (an event whose execution could not start), so the bank's next attempt is let through. */
export function forgetKey(store: SeenStore, key: string): void {
	for (const generation of [store.current, store.previous]) {
		if (generation?.keys[key] === undefined) continue;
		delete generation.keys[key];
		generation.count -= 1;
	}
}

/**
 * Keys let through recently, per trigger, in this n8n process. n8n saves a workflow's static data only after
 * work on it finishes, so two copies of one event that arrive together both find the saved keys without it;
 * this memory answers for them. Static data still carries the keys across restarts and other processes.
 */
export class RecentDeliveries {
	private readonly scopes = new Map<string, SeenStore>();

	has(scope: string, key: string, now: number, windowMs: number): boolean {
		const store = this.scopes.get(scope);
		return store !== undefined && wasSeen(store, key, now, windowMs);
	}

	remember(scope: string, key: string, now: number, windowMs: number): void {
		let store = this.scopes.get(scope);
		if (store === undefined) {
			store = emptyStore(now);
			this.scopes.set(scope, store);
		}
		remember(store, key, now, windowMs);
	}

	/** Forgets one key, so the next copy of that event is let through. */
	release(scope: string, key: string): void {
		const store = this.scopes.get(scope);
		if (store) forgetKey(store, key);
	}

	/** Forgets one trigger's keys, or everything (what a restart of n8n does). */
	forget(scope?: string): void {
		if (scope === undefined) this.scopes.clear();
		else this.scopes.delete(scope);
	}
}

export const recentDeliveries = new RecentDeliveries();
