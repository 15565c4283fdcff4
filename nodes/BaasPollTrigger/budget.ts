import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failureKindOf } from '../common/transport/errors';
import { responseCodeOf } from '../common/transport/outcome';
import { REQUEST_LIMITS } from '../common/transport/request';

/**
 * The requests one poll may still make (list pages, status and name look-ups). Running out is not a failure:
 * the poll ends, keeps what it handled, and the next poll goes on from there.
 */
export class OutOfBudget extends NodeOperationError {
	constructor(node: INode) {
		super(node, 'This poll made all the requests it may make (Requests per Poll, or its time); the next poll goes on from here');
	}
}

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
		private readonly node: INode,
		private readonly time?: { startBeforeMs: number; endBeforeMs: number },
	) {}

	get left(): number {
		return this.limit - this.spent - this.reserved;
	}

	/** Counts one request about to be sent and returns how long it may take (ms); throws OutOfBudget when none is left. */
	take(): number {
		const now = Date.now();
		if (this.spent >= this.limit - this.reserved) throw new OutOfBudget(this.node);
		let timeoutMs = REQUEST_LIMITS.timeoutMs;
		if (this.time !== undefined) {
			timeoutMs = Math.min(timeoutMs, this.time.endBeforeMs - now);
			if (now > this.time.startBeforeMs || timeoutMs < SHORTEST_REQUEST_MS) throw new OutOfBudget(this.node);
		}
		this.spent++;
		return timeoutMs;
	}
}

/**
 * Failures that end the whole poll rather than concern one record: no budget left, a refused sign-in, the bank
 * asking to slow down, or the bank unavailable (80, 5xx, no answer). The poll keeps what it handled and the next
 * one goes on in order; a refusal about one record (83, 06) leaves that record pending instead.
 */
export function endsThePoll(error: unknown): boolean {
	const kind = failureKindOf(error);
	if (error instanceof OutOfBudget || kind === 'signInRefused' || kind === 'signInFailed' || kind === 'noAnswer') return true;
	const httpStatus = Number((error as { httpCode?: unknown } | null)?.httpCode);
	const code = responseCodeOf(error);
	return code === '29' || code === '80' || httpStatus === 429 || httpStatus >= 500;
}
