import type { IDataObject, IHttpRequestOptions, NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { bankApiError, transportApiError, waitTooLongError } from './errors';
import type { ApiVariant, Route, RouteName } from './routes';
import { ROUTES, routeUrl } from './routes';
import { retryAfterMs, windowOf } from './pace';
import type { Scrubber } from './scrub';
import type { BankContext } from './session';
import { accessToken, credentialView, sealedFor, variantOf } from './session';

export type { BankContext } from './session';
export { CREDENTIAL_FOR_VARIANT, variantOf } from './session';

export interface Envelope<T = unknown> {
	status: boolean;
	response_code: string;
	message: string;
	data: T;
}

export interface BankRequestOptions {
	/** Which API to use; defaults to the variant of the node's Authentication parameter. */
	variant?: ApiVariant;
	itemIndex?: number;
	/** Total attempts for a request that is safe to retry (reads). Writes are always sent once. */
	attempts?: number;
	/**
	 * false when a 41/42 may be about a token in the body rather than the Bearer header (Session → Verify): then
	 * the held token is kept and the refusal returned to the caller. Default true.
	 */
	replaceRefusedToken?: boolean;
	/** How long the request may take (ms); default REQUEST_LIMITS.timeoutMs. A caller with a deadline gives less. */
	timeoutMs?: number;
}

/** Waits before retry n (1-based): 0.5 s, 1 s, 2 s … unless the bank said how long (Retry-After). */
export const RETRY_BASE_MS = 500;
const DEFAULT_READ_ATTEMPTS = 4;
/**
 * Attempts of a read the bank keeps refusing for its rate limit (HTTP 429, code 29): it did nothing and said
 * when to come back, so the read waits its turn longer than after a failure. With 4, one of 5 concurrent reads
 * could be refused 4 times in a row on a bank allowing 50 requests per second (benchmark 2) and stop the run.
 */
const RATE_LIMITED_READ_ATTEMPTS = 10;
/**
 * How long one request may take, and the first wait before a read is retried (then doubled); tests shorten
 * them to reach "no answer" and the end of the retries quickly.
 */
export const REQUEST_LIMITS = { timeoutMs: 60_000, retryBaseMs: RETRY_BASE_MS };
/**
 * The longest a read waits because the bank's Retry-After says so (a per-minute quota asks for up to 60 s).
 * When the bank asks for longer, the item fails at once, saying how long the bank asks to wait: an execution
 * that sleeps for an hour looks hung and holds n8n's resources.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

interface Failure {
	retryable: boolean;
	/** The bank's rate limit refused the request (HTTP 429 or code 29). */
	rateLimited?: boolean;
	retryAfterMs?: number;
	error: NodeApiError;
}

interface CaughtRequestError {
	cause?: { code?: string; message?: string };
	code?: string;
	message?: string;
}

/** The answer as n8n returns it with returnFullResponse and ignoreHttpStatusErrors: every HTTP status arrives here. */
interface FullResponse {
	statusCode: number;
	headers?: Record<string, string>;
	body: unknown;
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'EAI_AGAIN', 'ESOCKETTIMEDOUT']);

/** Codes with which the bank refuses the token itself (41 invalid, 42 expired), at whatever HTTP status. */
const TOKEN_REFUSED = new Set(['41', '42']);

function isEnvelope(value: unknown): value is Envelope {
	return typeof value === 'object' && value !== null && 'status' in value && 'response_code' in value;
}

interface Where {
	context: BankContext;
	itemIndex?: number;
	scrub: Scrubber;
}

/** An answer that is not a success: the bank's envelope with its code, or a page without one. */
function failedAnswer({ context, itemIndex, scrub }: Where, response: FullResponse): Failure {
	const status = response.statusCode;
	const retryAfter = retryAfterMs(response.headers?.['retry-after'], Date.now());
	if (isEnvelope(response.body)) {
		const code = String(response.body.response_code);
		return {
			retryable: code === '80' || code === '29' || status === 429 || status === 503,
			rateLimited: code === '29' || status === 429,
			retryAfterMs: retryAfter,
			error: bankApiError(context.getNode(), { responseCode: code, message: String(response.body.message ?? ''), httpStatus: status }, itemIndex, scrub),
		};
	}
	return {
		// Only a busy or failing server is worth asking again.
		retryable: status === 429 || status >= 500,
		rateLimited: status === 429,
		retryAfterMs: retryAfter,
		error: transportApiError(
			context.getNode(),
			status >= 200 && status < 300 ? 'the answer is not the bank\'s JSON envelope' : `HTTP ${status} without the bank's JSON envelope`,
			itemIndex,
			status,
			scrub,
		),
	};
}

/**
 * n8n's HTTP client (axios) reports an answer whose connection dropped or timed out after the headers, before
 * the end, as ERR_BAD_RESPONSE "stream has been aborted": as good as no answer.
 */
function cutShort(code: string | undefined, detail: string | undefined): boolean {
	return code === 'ERR_BAD_RESPONSE' && /aborted/i.test(detail ?? '');
}

/** No answer at all: the connection failed, dropped or timed out, before or while the answer arrived. */
function noAnswer({ context, itemIndex, scrub }: Where, caught: CaughtRequestError): Failure {
	const code = caught.cause?.code ?? caught.code;
	const detail = caught.cause?.message ?? caught.message;
	const summary = cutShort(code, detail)
		? `the connection ended while the answer was arriving (${code}: ${detail})`
		: `${code ?? 'network error'}${detail ? ` (${detail})` : ''}`;
	return {
		retryable: (code !== undefined && NETWORK_CODES.has(code)) || cutShort(code, detail),
		error: transportApiError(context.getNode(), summary, itemIndex, undefined, scrub),
	};
}

/**
 * Sends one request to the bank and returns the envelope's data. The only place that makes HTTP requests:
 * it picks the path for the credential in use, attaches the held token (one sign-in per token lifetime per
 * n8n process), unwraps the envelope, turns `status: false` into a NodeApiError whatever the HTTP status, and
 * retries reads (80, 429, 5xx, network) with growing waits, telling the run's pace (pace.ts) how the bank
 * keeps up. A token the bank refuses (41/42, at any HTTP status)
 * is replaced once and a read sent again; a write is not: the refusal proves nothing was done, and it is
 * reported so. Writes are never re-sent here: a caller that needs that asks first (transfers).
 */
export async function bankRequest<T = unknown>(
	context: BankContext,
	routeName: RouteName,
	body?: IDataObject,
	options: BankRequestOptions = {},
): Promise<T> {
	const envelope = await bankRequestEnvelope<T>(context, routeName, body, options);
	return envelope.data;
}

/** As bankRequest, but returns the whole envelope (for operations that show the bank's message). */
export async function bankRequestEnvelope<T = unknown>(
	context: BankContext,
	routeName: RouteName,
	body?: IDataObject,
	options: BankRequestOptions = {},
): Promise<Envelope<T>> {
	const route = ROUTES[routeName] as Route;
	const variant = options.variant ?? variantOf(context);
	const view = await credentialView(context, variant, options.itemIndex);
	const where: Where = { context, itemIndex: options.itemIndex, scrub: view.scrub };
	const url = routeUrl(view.baseUrl, routeName, variant);
	if (url === undefined) {
		throw transportApiError(
			context.getNode(),
			`this operation is not offered by the ${variant === 'api' ? 'API client' : 'dashboard'} API; choose the other authentication`,
			options.itemIndex,
		);
	}
	const request: IHttpRequestOptions = {
		method: route.method,
		url,
		json: true,
		timeout: Math.min(options.timeoutMs ?? REQUEST_LIMITS.timeoutMs, REQUEST_LIMITS.timeoutMs),
		// Every status comes back as an answer, so the envelope decides (41/42 at HTTP 200 included) and n8n's
		// own refresh-on-401 (one sign-in per concurrent request) never runs.
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		...(route.method === 'POST' ? { body: body ?? {} } : {}),
	};
	const attempts = route.safeToRetry ? (options.attempts ?? DEFAULT_READ_ATTEMPTS) : 1;
	const rateLimitedAttempts = route.safeToRetry ? (options.attempts ?? RATE_LIMITED_READ_ATTEMPTS) : 1;
	let token = await accessToken(context, view, options.itemIndex);
	let tokenReplaced = false;
	const pace = route.safeToRetry ? windowOf(context) : undefined;
	// A read answered only after waiting for the bank says the wait worked, not that the bank has room for more.
	let waitedForBank = false;

	for (let attempt = 1; ; attempt++) {
		let response: FullResponse;
		const sentAs = pace?.sending() ?? 0;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(context, view.type, { ...request }, {
				credentialsDecrypted: { id: '', name: '', type: view.type, data: { ...view.data, accessToken: sealedFor(view, token) } },
			})) as FullResponse;
		} catch (caught) {
			const failure = noAnswer(where, caught as CaughtRequestError);
			if (failure.retryable) pace?.busy(sentAs);
			if (!failure.retryable || attempt >= attempts) throw failure.error;
			waitedForBank = true;
			await sleep(REQUEST_LIMITS.retryBaseMs * 2 ** (attempt - 1));
			continue;
		}
		if (isEnvelope(response.body) && response.body.status === true) {
			if (!waitedForBank) pace?.answered();
			return response.body as Envelope<T>;
		}
		const failure = failedAnswer(where, response);
		const waitTooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_AFTER_MS;
		// A refusal about the request (unknown account, bad input) still shows the bank keeping up.
		if (failure.retryable) pace?.busy(sentAs, waitTooLong ? undefined : failure.retryAfterMs);
		else pace?.answered();
		if (options.replaceRefusedToken !== false && isEnvelope(response.body) && TOKEN_REFUSED.has(String(response.body.response_code)) && !tokenReplaced) {
			tokenReplaced = true;
			// Unless another request replaced it already, this signs in once; a refused sign-in is thrown here.
			token = await accessToken(context, view, options.itemIndex, { replacing: token });
			if (route.safeToRetry) {
				attempt--;
				continue;
			}
		}
		if (!failure.retryable || attempt >= (failure.rateLimited ? rateLimitedAttempts : attempts)) throw failure.error;
		if (waitTooLong) throw waitTooLongError(failure.error, failure.retryAfterMs!, MAX_RETRY_AFTER_MS);
		waitedForBank = true;
		// As Retry-After says; without a usable one, waits grow 0.5 s, 1 s, 2 s, 4 s and stay there (only a
		// rate-limited read gets past the fourth).
		await sleep(failure.retryAfterMs ?? REQUEST_LIMITS.retryBaseMs * 2 ** (Math.min(attempt, DEFAULT_READ_ATTEMPTS) - 1));
	}
}
