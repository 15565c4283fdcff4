import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** What to do about each response_code the bank documents (and the sandbox's own 25, 26, 29, 51, 57, 99). */
export const RESPONSE_CODE_HINTS: Record<string, string> = {
	'00': 'Success.',
	'06': 'No transfer has this reference number. Check the reference you used when you created the transfer.',
	'25': 'No record matches the ID you gave. Check the member or role ID.',
	'26': 'A record with this reference or e-mail already exists. For transfers, nothing was sent twice: look up the existing transfer with Transfer → Get Status.',
	'29': 'Too many requests. Wait a moment and run the workflow again.',
	'41': 'The bank did not accept the credentials or the session. Check the client ID/secret (or e-mail/password) in the credential.',
	'42': 'The access token expired. n8n requests a new one automatically; if this persists, check the credential.',
	'44': 'No account with this number belongs to your business. Check the account number.',
	'45': 'The account is blocked or closed, so its status cannot be changed. Contact the bank to reopen it.',
	'51': 'The source account does not hold enough funds for this transfer.',
	'57': 'The source account is not active, so it cannot send money. Activate it first.',
	'60': 'Your business profile is not active at the bank. Contact the bank.',
	'80': 'The bank or its provider is temporarily unavailable. Retry later.',
	'83': 'The bank or provider rejected the request (for example: account not found, or identity verification failed). Check the details you sent.',
	'99': 'The bank rejected the request as invalid. The message names the field.',
};

export interface BankFailure {
	responseCode: string;
	message: string;
	httpStatus?: number;
}

/**
 * The error users see when the bank says no. Built from the bank's code and message only, never from the
 * request, so headers (the token) and bodies (secrets) cannot leak into outputs or logs.
 */
export function bankApiError(node: INode, failure: BankFailure, itemIndex?: number): NodeApiError {
	const hint = RESPONSE_CODE_HINTS[failure.responseCode] ?? 'See the bank message above.';
	const detail: JsonObject = {
		response_code: failure.responseCode,
		message: failure.message,
		...(failure.httpStatus ? { http_status: failure.httpStatus } : {}),
	};
	const error = new NodeApiError(node, detail, {
		message: `The bank refused the request [${failure.responseCode}]: ${failure.message}`,
		description: hint,
		httpCode: failure.httpStatus ? String(failure.httpStatus) : undefined,
		itemIndex,
	});
	error.context.responseCode = failure.responseCode;
	error.context.bankMessage = failure.message;
	return error;
}

/** A failure that never reached the bank's envelope: connection refused, timeout, a proxy's HTML page. */
export function transportApiError(node: INode, summary: string, itemIndex?: number, httpStatus?: number) {
	const message = `Could not get an answer from the bank: ${summary}`;
	const error = new NodeApiError(
		node,
		{ message: summary },
		{
			message,
			description: 'Check the Base URL in the credential and that the bank is reachable from n8n.',
			httpCode: httpStatus ? String(httpStatus) : undefined,
			itemIndex,
		},
	);
	// n8n swaps a message naming ECONNRESET or ETIMEDOUT for its own advice to retry, wrong for a write whose outcome is unknown.
	error.message = message;
	error.context.responseCode = '';
	return error;
}

/** The credential could not get a token (wrong secret, locked sign-in, bank unreachable at sign-in). */
export function signInApiError(node: INode, message: string, itemIndex?: number) {
	const error = new NodeApiError(
		node,
		{ message },
		{ message, description: 'Open the credential and use its Test button to check it.', itemIndex },
	);
	error.context.responseCode = /\[(\d{2})\]/.exec(message)?.[1] ?? '';
	// The sign-in comes before the request, so the request itself was never sent.
	error.context.signIn = true;
	return error;
}
