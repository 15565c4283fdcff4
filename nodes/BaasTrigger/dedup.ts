import type { IDataObject } from 'n8n-workflow';

/**
 * Duplicate-delivery bookkeeping for the trigger (README, "Duplicate deliveries": same kind + reference inside a window).
 * Pure functions plus one small in-process memory; the node decides where the keys are kept.
 */

/** Delivery key → time (ms) it was first let through. */
export type SeenKeys = Record<string, number>;

/** Upper bound of keys kept per trigger, so static data stays small on a busy account. */
export const MAX_REMEMBERED = 5000;

/** The identity of an event: its kind and the reference of its record, else the delivery id, else none. */
export function deliveryKey(kind: string, data: unknown, deliveryId?: string): string | undefined {
	const record = typeof data === 'object' && data !== null ? (data as IDataObject) : {};
	const reference = record.reference_number ?? record.reference;
	if ((typeof reference === 'string' && reference !== '') || typeof reference === 'number') {
		return `${kind}:${String(reference)}`;
	}
	if (deliveryId) return `${kind}#delivery:${deliveryId}`;
	return undefined;
}

/** Keeps what was seen within the window (a clock step backwards keeps entries), newest last, at most MAX_REMEMBERED. */
export function prune(seen: unknown, now: number, windowMs: number): SeenKeys {
	if (typeof seen !== 'object' || seen === null || Array.isArray(seen)) return {};
	const fresh = Object.entries(seen as Record<string, unknown>)
		.filter((entry): entry is [string, number] => typeof entry[1] === 'number' && now - entry[1] < windowMs)
		.sort((a, b) => a[1] - b[1])
		.slice(-MAX_REMEMBERED);
	return Object.fromEntries(fresh);
}

/**
 * Keys let through recently, per trigger, in this n8n process. n8n saves a workflow's static data only after
 * work on it finishes, so two copies of one event that arrive together both find the saved keys without it;
 * this memory answers for them. Static data still carries the keys across restarts and other processes.
 */
export class RecentDeliveries {
	private readonly scopes = new Map<string, SeenKeys>();

	/** True when `key` was let through within the window (and prunes what is older). */
	has(scope: string, key: string, now: number, windowMs: number): boolean {
		const seen = prune(this.scopes.get(scope), now, windowMs);
		this.scopes.set(scope, seen);
		return seen[key] !== undefined;
	}

	remember(scope: string, key: string, now: number): void {
		this.scopes.set(scope, { ...this.scopes.get(scope), [key]: now });
	}

	/** Forgets one trigger's keys, or everything (what a restart of n8n does). */
	forget(scope?: string): void {
		if (scope === undefined) this.scopes.clear();
		else this.scopes.delete(scope);
	}
}

export const recentDeliveries = new RecentDeliveries();
