import { createHash } from 'node:crypto';

import { SHORT_KEY_LENGTH } from './deliveryKey';

/**
 * The trigger's duplicate-delivery memory in the workflow's static data (the one in this n8n process is
 * recentDeliveries.ts): two generations of up to GENERATION_SIZE keys, so the last 250 to 500 events, for a copy
 * that reaches another webhook process or arrives after a restart. n8n loads a production workflow's static
 * data from its database for every webhook request and saves it whole after the webhook answered, so every byte
 * kept there is parsed, wrapped and written once per delivery. It is therefore small (at most 7.5 KB) and packed:
 * one string per generation of fixed-width records (key, then the second it was let through), which JSON reads
 * and writes as one value, not one property per key.
 */

/** Keys per generation in static data; two generations are kept, so at most 2 × this many (15 bytes each as JSON). */
export const GENERATION_SIZE = 250;
export const MAX_REMEMBERED = 2 * GENERATION_SIZE;

/** The second a key was let through, after its generation's start: 4 base64url digits, most significant first. */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const OFFSET_LENGTH = 4;
/** 64^4 − 1 seconds (194 days): a generation older than this is closed even inside a longer window. */
const MAX_OFFSET = 64 ** OFFSET_LENGTH - 1;
const RECORD_LENGTH = SHORT_KEY_LENGTH + OFFSET_LENGTH;

/**
 * A generation of keys: `keys` holds one record per key, each the 11-character key followed by the second it
 * was let through after `start` (4 base64url digits), in arrival order.
 */
export interface Generation {
	start: number;
	keys: string;
}

/** What is kept per trigger (in the node's static data, and in process memory): the current and the previous generation. */
export interface SeenStore {
	current: Generation;
	previous?: Generation;
}

function encodeOffset(seconds: number): string {
	let value = Math.min(MAX_OFFSET, Math.max(0, Math.floor(seconds)));
	let out = '';
	for (let i = 0; i < OFFSET_LENGTH; i++) {
		out = DIGITS[value % 64] + out;
		value = Math.floor(value / 64);
	}
	return out;
}

function decodeOffset(keys: string, at: number): number {
	let value = 0;
	for (let i = at; i < at + OFFSET_LENGTH; i++) value = value * 64 + DIGITS.indexOf(keys[i]);
	return value;
}

const SHORT_KEY = /^[\w-]{11}$/;

/** A key as stored: deliveryKey's 11 characters as they are, anything else hashed to that form. */
function storedKey(key: string): string {
	return SHORT_KEY.test(key) ? key : createHash('sha256').update(key).digest('base64url').slice(0, SHORT_KEY_LENGTH);
}

/** Where `key`'s record starts in `keys`, or -1. A match that straddles two records is skipped. */
function recordOf(keys: string, key: string): number {
	for (let at = keys.indexOf(key); at !== -1; at = keys.indexOf(key, at + 1)) {
		if (at % RECORD_LENGTH === 0) return at;
	}
	return -1;
}

/** The keys a generation holds, oldest first. */
export function keysIn(generation: Generation | undefined): string[] {
	return recordsIn(generation).map(([key]) => key);
}

/** The records of a generation, oldest first: [stored key, the second it was let through]. */
function recordsIn(generation: Generation | undefined): Array<[string, number]> {
	const keys = generation?.keys ?? '';
	const out: Array<[string, number]> = [];
	for (let at = 0; at + RECORD_LENGTH <= keys.length; at += RECORD_LENGTH) {
		out.push([keys.slice(at, at + SHORT_KEY_LENGTH), generation!.start + decodeOffset(keys, at + SHORT_KEY_LENGTH)]);
	}
	return out;
}

function countOf(generation: Generation): number {
	return Math.floor(generation.keys.length / RECORD_LENGTH);
}

/** The packed form of a generation an older version saved as { start, keys: { key: second }, count }. */
function fromOlderVersion(start: number, keys: Record<string, unknown>): Generation {
	let packed = '';
	for (const [key, offset] of Object.entries(keys)) {
		if (typeof offset === 'number') packed += storedKey(key) + encodeOffset(offset);
	}
	return { start, keys: packed };
}

/** The generation in `value` (migrating an older version's form), or undefined when there is none. */
function asGeneration(value: unknown): Generation | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const g = value as { start?: unknown; keys?: unknown };
	if (typeof g.start !== 'number') return undefined;
	if (typeof g.keys === 'string') return g.keys.length % RECORD_LENGTH === 0 ? (value as Generation) : undefined;
	if (typeof g.keys === 'object' && g.keys !== null) return fromOlderVersion(g.start, g.keys as Record<string, unknown>);
	return undefined;
}

/** The store in `value`, or undefined when it holds none (first delivery, or data that is not a store). */
export function asStore(value: unknown): SeenStore | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const store = value as SeenStore;
	const current = asGeneration(store.current);
	if (current === undefined) return undefined;
	if (current !== store.current) store.current = current;
	if (store.previous !== undefined) {
		const previous = asGeneration(store.previous);
		if (previous === undefined) delete store.previous;
		else if (previous !== store.previous) store.previous = previous;
	}
	return store;
}

function newGeneration(nowSeconds: number): Generation {
	return { start: nowSeconds, keys: '' };
}

export function emptyStore(now: number): SeenStore {
	return { current: newGeneration(Math.floor(now / 1000)) };
}

function seenIn(generation: Generation | undefined, key: string, nowSeconds: number, windowSeconds: number): boolean {
	if (generation === undefined) return false;
	const at = recordOf(generation.keys, key);
	// A clock that stepped backwards gives a negative age: still inside the window.
	return at !== -1 && nowSeconds - (generation.start + decodeOffset(generation.keys, at + SHORT_KEY_LENGTH)) < windowSeconds;
}

/** True when `key` was let through less than `windowMs` ago. */
export function wasSeen(store: SeenStore, key: string, now: number, windowMs: number): boolean {
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(windowMs / 1000);
	const stored = storedKey(key);
	return seenIn(store.current, stored, nowSeconds, windowSeconds) || seenIn(store.previous, stored, nowSeconds, windowSeconds);
}

function withoutRecord(keys: string, at: number): string {
	return keys.slice(0, at) + keys.slice(at + RECORD_LENGTH);
}

/**
 * Records `key`. A generation older than the window, or full, becomes the previous one and the one before it
 * is dropped whole: every key let through in the last window is kept unless more than GENERATION_SIZE
 * arrived since (a busy account keeps at least the last GENERATION_SIZE events).
 */
export function remember(store: SeenStore, key: string, now: number, windowMs: number): void {
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(windowMs / 1000);
	const age = nowSeconds - store.current.start;
	if (age >= Math.min(windowSeconds, MAX_OFFSET) || countOf(store.current) >= GENERATION_SIZE) {
		const current = store.current;
		store.previous = age >= 2 * windowSeconds ? undefined : current;
		if (store.previous === undefined) delete store.previous;
		store.current = newGeneration(nowSeconds);
	}
	const current = store.current;
	const stored = storedKey(key);
	const at = recordOf(current.keys, stored);
	const record = stored + encodeOffset(nowSeconds - current.start);
	current.keys = at === -1 ? current.keys + record : current.keys.slice(0, at) + record + current.keys.slice(at + RECORD_LENGTH);
}

/** Forgets `key` (an event whose execution could not start), so the bank's next attempt is let through. */
export function forgetKey(store: SeenStore, key: string): void {
	const stored = storedKey(key);
	for (const generation of [store.current, store.previous]) {
		if (generation === undefined) continue;
		const at = recordOf(generation.keys, stored);
		if (at !== -1) generation.keys = withoutRecord(generation.keys, at);
	}
}

/** Every record of a store, the previous generation's first. */
const recordsOf = (store: SeenStore) => [...recordsIn(store.previous), ...recordsIn(store.current)];

function packed(records: Array<[string, number]>): Generation {
	const start = records[0][1];
	return { start, keys: records.map(([key, second]) => key + encodeOffset(second - start)).join('') };
}

/**
 * The union of two stores: every key either holds, with its later second, that is still inside the window;
 * the most recent MAX_REMEMBERED of them, packed as two generations. Its cost is bounded by MAX_REMEMBERED.
 */
export function mergeStores(a: SeenStore, b: SeenStore, now: number, windowMs: number): SeenStore {
	const nowSeconds = Math.floor(now / 1000);
	const windowSeconds = Math.ceil(windowMs / 1000);
	const latest = new Map<string, number>();
	for (const [key, second] of [...recordsOf(a), ...recordsOf(b)]) {
		if (nowSeconds - second < windowSeconds && second > (latest.get(key) ?? -Infinity)) latest.set(key, second);
	}
	const records = [...latest].sort((x, y) => x[1] - y[1]).slice(-MAX_REMEMBERED);
	if (records.length === 0) return emptyStore(now);
	if (records.length <= GENERATION_SIZE) return { current: packed(records) };
	return { previous: packed(records.slice(0, -GENERATION_SIZE)), current: packed(records.slice(-GENERATION_SIZE)) };
}
