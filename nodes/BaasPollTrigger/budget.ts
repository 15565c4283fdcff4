import { failureKindOf } from '../common/transport/errors';
import { responseCodeOf } from '../common/transport/outcome';
import { REQUEST_LIMITS } from '../common/transport/request';

/**
 * What a request gives when the poll may make no more (Requests per Poll, or its time). Running out is not a
 * failure and is not thrown: whoever asked stops there, keeping what it handled, and the next poll goes on.
 */
export const NO_REQUEST_LEFT: unique symbol = Symbol('no request left');
export type NoRequestLeft = typeof NO_REQUEST_LEFT;

/** A request shorter than this is not started: it could not get an answer in time. */
const SHORTEST_REQUEST_MS = 200;

/**
 * Requests per poll (Requests per Poll) and, where n8n gives the poll a time budget, time: no request starts
 * after `startBeforeMs`, and each one may take only until `endBeforeMs`, so the poll ends inside n8n's budget
 * whatever the bank's latency and n8n keeps what it emitted.
 */
export class Budget {
	spent = 0;
	/** Requests kept for what comes later in the poll: take() refuses to spend them. */
	reserved = 0;

	constructor(
		private readonly limit: number,
		private readonly time?: { startBeforeMs: number; endBeforeMs: number },
	) {}

	get left(): number {
		return this.limit - this.spent - this.reserved;
	}

	/** Counts one request about to be sent and returns how long it may take (ms), or NO_REQUEST_LEFT. */
	take(): number | NoRequestLeft {
		const now = Date.now();
		if (this.spent >= this.limit - this.reserved) return NO_REQUEST_LEFT;
		let timeoutMs = REQUEST_LIMITS.timeoutMs;
		if (this.time !== undefined) {
			timeoutMs = Math.min(timeoutMs, this.time.endBeforeMs - now);
			if (now > this.time.startBeforeMs || timeoutMs < SHORTEST_REQUEST_MS) return NO_REQUEST_LEFT;
		}
		this.spent++;
		return timeoutMs;
	}
}

/**
 * Failures that end the whole poll rather than concern one record: a refused sign-in, the bank
 * asking to slow down, or the bank unavailable (80, 5xx, no answer). The poll keeps what it handled and the next
 * one goes on in order; a refusal about one record (83, 06) leaves that record pending instead.
 */
export function endsThePoll(error: unknown): boolean {
	const kind = failureKindOf(error);
	if (kind === 'signInRefused' || kind === 'signInFailed' || kind === 'noAnswer') return true;
	const httpStatus = Number((error as { httpCode?: unknown } | null)?.httpCode);
	const code = responseCodeOf(error);
	return code === '29' || code === '80' || httpStatus === 429 || httpStatus >= 500;
}
