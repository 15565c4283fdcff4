import type { SeenStore } from './seenStore';
import { forgetKey, mergeStores } from './seenStore';

/**
 * The trigger's duplicate-delivery memory in this n8n process (the one in static data is seenStore.ts, with the
 * same keys and the same window): two generations of up to MEMORY_GENERATION_SIZE keys per trigger in Maps, so
 * the last 2,500 to 5,000 events. Constant cost per delivery: two lookups, one insert.
 */

/** Keys per generation in process memory: the last 2,500 to 5,000 events of a trigger. */
export const MEMORY_GENERATION_SIZE = 2500;

/** Two stores with the same records: the loaded one already holds what this process wrote. */
const sameStore = (a: SeenStore, b: SeenStore) =>
	a.current.start === b.current.start &&
	a.current.keys === b.current.keys &&
	a.previous?.start === b.previous?.start &&
	a.previous?.keys === b.previous?.keys;

/** A generation of the process memory: key → seconds after `start` it was let through. */
interface MemoryGeneration {
	start: number;
	keys: Map<string, number>;
}

interface MemoryStore {
	current: MemoryGeneration;
	previous?: MemoryGeneration;
}

function seenInMemory(generation: MemoryGeneration | undefined, key: string, nowSeconds: number, windowSeconds: number): boolean {
	const offset = generation?.keys.get(key);
	return offset !== undefined && nowSeconds - (generation!.start + offset) < windowSeconds;
}

/**
 * Keys let through recently, per trigger, in this n8n process. n8n saves a workflow's static data only after
 * work on it finishes, so two copies of one event that arrive together both find the saved keys without it;
 * this memory answers for them, and holds ten times as many keys as static data. Static data carries the most
 * recent keys across restarts and other processes.
 */
export class RecentDeliveries {
	private readonly scopes = new Map<string, MemoryStore>();
	/** Per trigger, the static-data store this process last wrote. */
	private readonly written = new Map<string, SeenStore>();

	/**
	 * The store to check and write for a delivery: what n8n loaded from the database, joined with what this
	 * process last wrote. n8n saves static data whole, so of two deliveries that loaded the same data the later
	 * save would erase the earlier one's key; writing the union keeps every key this process let through, and
	 * takes in what other webhook processes wrote (their keys reach the database again with this save).
	 */
	reconcile(scope: string, loaded: SeenStore, now: number, windowMs: number): SeenStore {
		const written = this.written.get(scope);
		return written === undefined || sameStore(written, loaded) ? loaded : mergeStores(loaded, written, now, windowMs);
	}

	/** What this process has just written for a trigger (a copy: n8n may wrap the object it saves). */
	wrote(scope: string, store: SeenStore): void {
		this.written.set(scope, { current: { ...store.current }, ...(store.previous ? { previous: { ...store.previous } } : {}) });
	}

	has(scope: string, key: string, now: number, windowMs: number): boolean {
		const store = this.scopes.get(scope);
		if (store === undefined) return false;
		const nowSeconds = Math.floor(now / 1000);
		const windowSeconds = Math.ceil(windowMs / 1000);
		return seenInMemory(store.current, key, nowSeconds, windowSeconds) || seenInMemory(store.previous, key, nowSeconds, windowSeconds);
	}

	remember(scope: string, key: string, now: number, windowMs: number): void {
		const nowSeconds = Math.floor(now / 1000);
		const windowSeconds = Math.ceil(windowMs / 1000);
		let store = this.scopes.get(scope);
		if (store === undefined) {
			store = { current: { start: nowSeconds, keys: new Map() } };
			this.scopes.set(scope, store);
		}
		const age = nowSeconds - store.current.start;
		if (age >= windowSeconds || store.current.keys.size >= MEMORY_GENERATION_SIZE) {
			store.previous = age >= 2 * windowSeconds ? undefined : store.current;
			store.current = { start: nowSeconds, keys: new Map() };
		}
		store.current.keys.set(key, Math.max(0, nowSeconds - store.current.start));
	}

	/** Forgets one key, so the next copy of that event is let through. */
	release(scope: string, key: string): void {
		const store = this.scopes.get(scope);
		store?.current.keys.delete(key);
		store?.previous?.keys.delete(key);
		const written = this.written.get(scope);
		if (written !== undefined) forgetKey(written, key);
	}

	/** Forgets one trigger's keys, or everything (what a restart of n8n does). */
	forget(scope?: string): void {
		if (scope === undefined) {
			this.scopes.clear();
			this.written.clear();
		} else {
			this.scopes.delete(scope);
			this.written.delete(scope);
		}
	}
}

export const recentDeliveries = new RecentDeliveries();
