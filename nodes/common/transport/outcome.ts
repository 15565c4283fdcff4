import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * For a request that changes state (a transfer): true when its failure leaves the outcome unknown — the
 * connection dropped or timed out, or an answer came back without the bank's envelope, or the server failed
 * (HTTP 5xx) — so the bank may have acted on it. False when the bank answered with an envelope error such as
 * 26, 51 or 57 (it decided, and nothing happened) or the sign-in failed (nothing was sent). The transport
 * records this on the error when it builds it (errors.ts); it is read here, never inferred from the text.
 */
export function outcomeUnknown(error: unknown): boolean {
	return error instanceof NodeApiError && error.context?.outcomeUnknown === true;
}

/** The bank's response_code carried by a transport error ('' when the bank gave no envelope), if any. */
export function responseCodeOf(error: unknown): string | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const code = error.context?.responseCode;
	return typeof code === 'string' ? code : undefined;
}

/** A caught error as the n8n error to throw on: bank and node errors pass unchanged, anything else is wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}
