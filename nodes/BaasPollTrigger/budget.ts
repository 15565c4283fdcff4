import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failureKindOf } from '../Baas/transport/errors';
import { responseCodeOf } from '../Baas/transport/outcome';

/**
 * The requests one poll may still make (list pages, status and name look-ups). Running out is not a failure:
 * the poll ends, keeps what it handled, and the next poll goes on from there.
 */
export class OutOfBudget extends NodeOperationError {
	constructor(node: INode) {
		super(node, 'This poll made all the requests it may make (Requests per Poll); the next poll goes on from here');
	}
}

export class Budget {
	spent = 0;

	constructor(
		private readonly limit: number,
		private readonly node: INode,
		/** n8n's clock after which no request starts (epoch ms), or undefined for no time limit. */
		private readonly deadlineMs?: number,
	) {}

	get left(): number {
		return this.limit - this.spent;
	}

	/** Counts one request about to be sent; throws OutOfBudget when none is left. */
	take(): void {
		if (this.spent >= this.limit || (this.deadlineMs !== undefined && Date.now() > this.deadlineMs)) throw new OutOfBudget(this.node);
		this.spent++;
	}

	/** A share of what is left, as a budget of its own whose spending counts here too. */
	share(parts: number): Budget {
		const sub = new Budget(Math.floor(this.left / Math.max(1, parts)), this.node, this.deadlineMs);
		const takeOwn = sub.take.bind(sub);
		sub.take = () => {
			takeOwn();
			this.take();
		};
		return sub;
	}
}

/** Failures that end the whole poll (no budget left, the bank asks to slow down, a refused sign-in), not one record. */
export function endsThePoll(error: unknown): boolean {
	if (error instanceof OutOfBudget || failureKindOf(error) === 'signInRefused') return true;
	const httpStatus = (error as { httpCode?: unknown } | null)?.httpCode;
	return responseCodeOf(error) === '29' || String(httpStatus) === '429';
}
