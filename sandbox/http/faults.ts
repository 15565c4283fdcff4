/** Fault injection: error codes, latency, dropped connections, rate limiting and duplicate webhook deliveries. */
import { z } from 'zod';
import { Prng } from '../data/prng';
import type { FaultSpec } from '../types';
import { parse } from './requestValidation';

export const faultSchema = z
	.object({
		match: z.string().min(1, { message: 'must not be empty' }).optional(),
		errorCode: z.string().regex(/^(?!00)\d{2}$/, { message: 'must be a two-digit error code (not 00)' }).optional(),
		errorRate: z.number().min(0, { message: 'must be between 0 and 1' }).max(1, { message: 'must be between 0 and 1' }).optional(),
		latencyMs: z.number().int().min(0, { message: 'must be at least 0' }).optional(),
		drop: z.enum(['before', 'after', 'midAnswer']).optional(),
		stallAnswer: z.boolean().optional(),
		rateLimit: z
			.object({
				retryAfterSeconds: z.number().int().min(0, { message: 'must be at least 0' }),
				perSecond: z.number().int().min(1, { message: 'must be at least 1' }).optional(),
			})
			.strict()
			.optional(),
		httpStatus: z.number().int().min(200, { message: 'must be an HTTP status' }).max(599, { message: 'must be an HTTP status' }).optional(),
		echoAuthorization: z.boolean().optional(),
		duplicateWebhooks: z.boolean().optional(),
		times: z.number().int().min(1, { message: 'must be at least 1' }).optional(),
	})
	.strict()
	.refine((f) => f.errorCode || f.latencyMs !== undefined || f.drop || f.stallAnswer || f.rateLimit || f.duplicateWebhooks, {
		message: 'a fault needs at least one of errorCode, latencyMs, drop, stallAnswer, rateLimit, duplicateWebhooks',
	});

export interface StoredFault extends FaultSpec {
	id: string;
	/** how many times it has applied */
	hits: number;
	/** For a rateLimit with perSecond: the clock second being counted and the requests seen in it. */
	second?: number;
	seenThisSecond?: number;
}

/** What the matching faults do to one request. */
export interface RequestEffects {
	latencyMs: number;
	rateLimit?: { retryAfterSeconds: number; perSecond?: number };
	errorCode?: string;
	httpStatus?: number;
	echoAuthorization?: boolean;
	drop?: 'before' | 'after' | 'midAnswer';
	stallAnswer?: boolean;
}

function affectsRequests(f: FaultSpec): boolean {
	return Boolean(f.errorCode || f.latencyMs || f.drop || f.stallAnswer || f.rateLimit);
}

export class FaultRegistry {
	private faults: StoredFault[] = [];
	private seq = 0;
	private prng: Prng;
	private readonly seed: number;

	constructor(seed: number) {
		this.seed = seed;
		this.prng = new Prng(seed);
	}

	/** Throws ApiError 99 on an invalid spec. */
	add(spec: unknown): StoredFault {
		const valid = parse(faultSchema, spec) as FaultSpec;
		const stored: StoredFault = { ...valid, id: `fault-${++this.seq}`, hits: 0 };
		this.faults.push(stored);
		return stored;
	}

	list(): StoredFault[] {
		return this.faults.map((f) => ({ ...f }));
	}

	remove(id: string): boolean {
		const before = this.faults.length;
		this.faults = this.faults.filter((f) => f.id !== id);
		return this.faults.length !== before;
	}

	clear(): void {
		this.faults = [];
		this.prng = new Prng(this.seed);
	}

	/** True while a perSecond rate limit still lets requests through in the current clock second. */
	private withinLimit(f: StoredFault): boolean {
		if (f.rateLimit?.perSecond === undefined) return false;
		const second = Math.floor(Date.now() / 1000);
		if (f.second !== second) {
			f.second = second;
			f.seenThisSecond = 0;
		}
		f.seenThisSecond = (f.seenThisSecond ?? 0) + 1;
		return f.seenThisSecond <= f.rateLimit.perSecond;
	}

	/** Rolls errorRate for one fault and counts the hit; expired faults are removed. */
	private fire(f: StoredFault): boolean {
		if ((f.errorRate ?? 1) < 1 && this.prng.next() >= (f.errorRate ?? 1)) return false;
		f.hits++;
		if (f.times !== undefined && f.hits >= f.times) this.remove(f.id);
		return true;
	}

	forRequest(path: string): RequestEffects {
		const effects: RequestEffects = { latencyMs: 0 };
		for (const f of [...this.faults]) {
			if (!affectsRequests(f) || (f.match && !path.includes(f.match))) continue;
			if (this.withinLimit(f) || !this.fire(f)) continue;
			effects.latencyMs += f.latencyMs ?? 0;
			effects.rateLimit ??= f.rateLimit;
			if (f.errorCode && !effects.errorCode) {
				effects.errorCode = f.errorCode;
				effects.httpStatus = f.httpStatus;
				effects.echoAuthorization = f.echoAuthorization;
			}
			effects.drop ??= f.drop;
			effects.stallAnswer ||= f.stallAnswer;
		}
		return effects;
	}

	/** True when a delivery of `event` to `url` should be sent twice. */
	duplicateDelivery(url: string, event: string): boolean {
		let dup = false;
		for (const f of [...this.faults]) {
			if (!f.duplicateWebhooks || (f.match && !url.includes(f.match) && !event.includes(f.match))) continue;
			if (this.fire(f)) dup = true;
		}
		return dup;
	}
}
