import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Scrubber } from './scrub';
import { scrubPatterns } from './scrub';
import type { SignInError } from './tokenExchange';

/** What to do about each response_code the bank documents (and the sandbox's own 25, 26, 29, 51, 57, 99). */
export const RESPONSE_CODE_HINTS: Record<string, string> = {
	'00': 'Success.',
	'06': 'No transfer has this reference number. Check the reference you used when you created the transfer.',
	'25': 'No record matches the ID you gave. Check the member or role ID.',
	'26': 'A record with this reference or e-mail already exists. For transfers, nothing was sent twice: look up the existing transfer with Transfer → Get Status.',
	'29': 'Too many requests. Wait a moment and run the workflow again.',
	'41': 'The bank did not accept the credentials or the session. Check the client ID/secret (or e-mail/password) in the credential.',
	'42': 'The access token expired before the bank acted on the request, so nothing was done. Run the item again; if this persists, check the credential.',
	'44': 'No account with this number belongs to your business. Check the account number.',
	'45': 'The account is blocked or closed, so its status cannot be changed. Contact the bank to reopen it.',
	'51': 'The source account does not hold enough funds for this transfer.',
	'57': 'The source account is not active, so it cannot send money. Activate it first.',
	'60': 'Your business profile is not active at the bank. Contact the bank.',
	'80': 'The bank or its provider is temporarily unavailable. Retry later.',
	'83': 'The bank or provider rejected the request (for example: account not found, or identity verification failed). Check the details you sent.',
	'99': 'The bank rejected the request as invalid. The message names the field.',
};

/**
 * What kind of failure an error is, kept as data on the error (`error.context`), so that no caller has to read
 * it back out of the message:
 * - `bankRefused`: the bank answered with its envelope and a code (`responseCode`, `bankMessage`);
 * - `signInRefused`: the bank refused the credential's sign-in; the request itself was never sent;
 * - `signInFailed`: the sign-in got no answer (bank unreachable or busy); the request was never sent;
 * - `noAnswer`: the request got no usable answer (timeout, dropped connection, a page without the envelope).
 * `outcomeUnknown` is true when the bank may have acted on the request: no usable answer, or a server error.
 */
export type FailureKind = 'bankRefused' | 'signInRefused' | 'signInFailed' | 'noAnswer';

export interface BankFailure {
	responseCode: string;
	message: string;
	httpStatus?: number;
}

function mark(error: NodeApiError, kind: FailureKind, responseCode: string, outcomeUnknown: boolean) {
	error.context.kind = kind;
	error.context.responseCode = responseCode;
	error.context.outcomeUnknown = outcomeUnknown;
	// The sign-in comes before the request, so the request itself was never sent.
	error.context.signIn = kind === 'signInRefused' || kind === 'signInFailed';
	return error;
}

/** The kind of a caught error (see FailureKind), or undefined for errors not built here. */
export function failureKindOf(error: unknown): FailureKind | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const kind = error.context?.kind;
	return typeof kind === 'string' ? (kind as FailureKind) : undefined;
}

/**
 * The error users see when the bank says no. Built from the bank's code and message only, never from the
 * request, and the message is scrubbed (a bank may echo the Authorization header).
 */
export function bankApiError(node: INode, failure: BankFailure, itemIndex?: number, scrub: Scrubber = scrubPatterns): NodeApiError {
	const hint = RESPONSE_CODE_HINTS[failure.responseCode] ?? 'See the bank message above.';
	const bankMessage = scrub(failure.message);
	const detail: JsonObject = {
		response_code: failure.responseCode,
		message: bankMessage,
		...(failure.httpStatus ? { http_status: failure.httpStatus } : {}),
	};
	const error = new NodeApiError(node, detail, {
		message: `The bank refused the request [${failure.responseCode}]: ${bankMessage}`,
		description: hint,
		httpCode: failure.httpStatus ? String(failure.httpStatus) : undefined,
		itemIndex,
	});
	error.context.bankMessage = bankMessage;
	return mark(error, 'bankRefused', failure.responseCode, (failure.httpStatus ?? 0) >= 500);
}

/** A failure that never reached the bank's envelope: connection refused, timeout, a proxy's HTML page. */
export function transportApiError(node: INode, summary: string, itemIndex?: number, httpStatus?: number, scrub: Scrubber = scrubPatterns) {
	const clean = scrub(summary);
	const message = `Could not get an answer from the bank: ${clean}`;
	const error = new NodeApiError(
		node,
		{ message: clean },
		{
			message,
			description: 'Check the Base URL in the credential and that the bank is reachable from n8n.',
			httpCode: httpStatus ? String(httpStatus) : undefined,
			itemIndex,
		},
	);
	// n8n swaps a message naming ECONNRESET or ETIMEDOUT for its own advice to retry, wrong for a write whose outcome is unknown.
	error.message = message;
	return mark(error, 'noAnswer', '', true);
}

/**
 * The credential could not get a token: the bank refused it (now, or earlier and the sign-in guard did not ask
 * again), or could not be reached at sign-in. The message names the credential and when it is tried again; the
 * description says what to fix.
 */
export function signInApiError(node: INode, failure: SignInError, itemIndex?: number, scrub: Scrubber = scrubPatterns) {
	const message = scrub(failure.message);
	const advice = failure.advice ?? 'Check the Base URL in the credential and that the bank is reachable from n8n.';
	const error = new NodeApiError(node, { message }, { message, description: scrub(`Nothing was sent for this item. ${advice}`), itemIndex });
	if (failure.notTriedUntilMs !== undefined) error.context.notTriedUntil = new Date(failure.notTriedUntilMs).toISOString();
	return mark(error, failure.refused ? 'signInRefused' : 'signInFailed', failure.responseCode, false);
}

/**
 * A read the bank refused with a Retry-After longer than the node waits (`limitMs`): the bank's refusal, told
 * as "the bank asks to wait N s", with when to run the item again. The bank did nothing with the request.
 */
export function waitTooLongError(refusal: NodeApiError, waitMs: number, limitMs: number): NodeApiError {
	const seconds = Math.ceil(waitMs / 1000);
	const until = new Date(Date.now() + waitMs).toISOString().slice(0, 16).replace('T', ' ');
	refusal.message = `The bank asks to wait ${seconds} s before the next request (${refusal.message})`;
	refusal.description = `Nothing was done for this item. n8n waits at most ${limitMs / 1000} s when the bank asks; run the item again after ${until} UTC, or spread the items over time (fewer per run, a lower Concurrency).`;
	refusal.context.retryAfterSeconds = seconds;
	return refusal;
}
