import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { outcomeUnknown } from '../transport/outcome';

/**
 * What happened to a write, in one word a sheet can store: successful, pending or failed (the bank's own
 * status of a transfer it holds), refused (not made: the bank refused it, or the node refused the input
 * before sending), unknown (the answer was lost and the bank's records could not settle it).
 */
export type Outcome = 'successful' | 'pending' | 'failed' | 'refused' | 'unknown';

type ItemError = NodeApiError | NodeOperationError;

/** The outcome an error carries (set where it was decided), if any. */
export function outcomeOf(error: ItemError): Outcome | undefined {
	return error.context?.outcome as Outcome | undefined;
}

export function withOutcome<E extends ItemError>(error: E, outcome: Outcome): E {
	error.context.outcome = outcome;
	return error;
}

/**
 * An error that has no outcome yet gets one from what the bank did: no usable answer → unknown; an answer
 * refusing it (or no request at all: bad input, refused sign-in) → refused.
 */
export function withDefaultOutcome<E extends ItemError>(error: E): E {
	return outcomeOf(error) ? error : withOutcome(error, outcomeUnknown(error) ? 'unknown' : 'refused');
}

/** A transfer record's status as the outcome; a status the node does not know is reported as unknown. */
export function outcomeOfRecord(record: IDataObject): Outcome {
	const status = String(record.status ?? '');
	return status === 'successful' || status === 'pending' || status === 'failed' ? status : 'unknown';
}

/** A sentence ends with a full stop before the advice that follows it. */
const ended = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/**
 * The advice is in the message itself, not only in the description: an AI agent (or an MCP client) calling the
 * node as a tool reads the message and nothing else, and must learn from it what to do next (keep this reference,
 * check its status, nothing was sent).
 */
function itemError(node: INode, itemIndex: number, what: string, advice: string, outcome: Outcome) {
	const message = advice ? `${ended(what)} ${advice}` : what;
	const error = new NodeOperationError(node, message, { itemIndex, description: advice });
	// n8n replaces a message naming ECONNRESET or ETIMEDOUT with its own advice to retry: keep what was decided here.
	error.message = message;
	return withOutcome(error, outcome);
}

/** An item whose write may or may not have happened: says so, and how to find out before running it again. */
export function unknownOutcomeError(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return itemError(node, itemIndex, message, description, 'unknown');
}

/** A write the node did not send (or whose reference proved it was not made). */
export function refusedError(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return itemError(node, itemIndex, message, description, 'refused');
}

/** A lost answer's error as a cause inside another message: what happened, without the transport's lead-in. */
export function whyNoAnswer(error: unknown): string {
	return String((error as Error)?.message ?? error).replace(/^Could not get an answer from the bank: /, '');
}
