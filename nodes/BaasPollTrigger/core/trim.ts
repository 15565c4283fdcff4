/**
 * How the Poll Trigger's memory of one list stays bounded (core/memory.ts holds what it remembers): the oldest
 * records are forgotten, and the floor rises above them so that none comes back as new. Pure.
 */
import type { Memory } from './memory';
import { MALFORMED } from './memory';

export interface TrimLimits {
	/** Records created before this are forgotten (bank clock, ms), except the newest `keepTop` mirror entries. */
	forgetBeforeMs: number | null;
	maxSeen: number;
	keepTop: number;
}

/**
 * Bounds the memory: the mirror loses entries from its bottom (the oldest) that are older than `forgetBeforeMs`
 * or beyond `maxSeen`; `seen` keeps every mirror entry, and other records (no longer listed where the mirror
 * expected them) until they are older than `forgetBeforeMs`, at most `maxSeen` in all, the oldest going first.
 * Returns the floor the memory now needs: `forgetBeforeMs`, raised above any record forgotten younger than it.
 */
export function trim(memory: Memory, limits: TrimLimits): number | null {
	const old = (reference: string) => {
		if (reference === MALFORMED) return true;
		const ms = memory.seen.get(reference);
		return limits.forgetBeforeMs !== null && ms !== undefined && ms < limits.forgetBeforeMs;
	};
	let end = Math.min(memory.mirror.length, limits.maxSeen);
	while (end > limits.keepTop && old(memory.mirror[end - 1])) end--;
	memory.mirror = memory.mirror.slice(0, end);
	const mirrored = new Set(memory.mirror);
	const others = [...memory.seen].filter(([reference, ms]) => !mirrored.has(reference) && !(limits.forgetBeforeMs !== null && ms < limits.forgetBeforeMs));
	others.sort((a, b) => b[1] - a[1]);
	const room = Math.max(0, limits.maxSeen - mirrored.size + (mirrored.has(MALFORMED) ? 1 : 0));
	const kept = new Map<string, number>();
	for (const reference of memory.mirror) {
		if (reference === MALFORMED) continue;
		const ms = memory.seen.get(reference);
		if (ms !== undefined) kept.set(reference, ms);
	}
	for (const [reference, ms] of others.slice(0, room)) kept.set(reference, ms);
	// A record forgotten must never come back as new: the floor rises above every record forgotten.
	let floorMs = limits.forgetBeforeMs;
	for (const [reference, ms] of memory.seen) if (!kept.has(reference)) floorMs = Math.max(floorMs ?? -Infinity, ms + 1);
	memory.seen = kept;
	return floorMs;
}
