import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { bankApiError, signInApiError, transportApiError } from './errors';
import type { ApiVariant, Route, RouteName } from './routes';
import { ROUTES, routeUrl } from './routes';

export type BankContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export const CREDENTIAL_FOR_VARIANT: Record<ApiVariant, string> = {
	api: 'baasApi',
	web: 'baasDashboardApi',
};

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
}

/** Waits before retry n (1-based): 0.5 s, 1 s, 2 s … unless the bank said how long (Retry-After). */
export const RETRY_BASE_MS = 500;
const DEFAULT_READ_ATTEMPTS = 4;
/** How long one request may take; tests shorten it to reach "no answer" quickly. */
export const REQUEST_LIMITS = { timeoutMs: 60_000 };

/** The API variant chosen by the node's Authentication parameter (API client → /api/, dashboard user → /web/). */
export function variantOf(context: BankContext): ApiVariant {
	// Execute contexts take (name, itemIndex, fallback); hook, webhook and load-options contexts (name, fallback).
	const authentication = (
		'getInputData' in context
			? context.getNodeParameter('authentication', 0, 'apiClient')
			: (context as ILoadOptionsFunctions).getNodeParameter('authentication', 'apiClient')
	) as string;
	return authentication === 'dashboardUser' ? 'web' : 'api';
}

interface Failure {
	retryable: boolean;
	retryAfterMs?: number;
	error: Error;
}

interface CaughtRequestError {
	httpCode?: string | null;
	context?: IDataObject;
	cause?: {
		code?: string;
		message?: string;
		response?: { status?: number; data?: unknown; headers?: Record<string, string> };
	};
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'EAI_AGAIN', 'ESOCKETTIMEDOUT']);

function isEnvelope(value: unknown): value is Envelope {
	return typeof value === 'object' && value !== null && 'status' in value && 'response_code' in value;
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
	const seconds = Number(headers?.['retry-after']);
	return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 60) * 1000 : undefined;
}

/** Sorts a thrown request error into "the bank answered with an envelope" and "no usable answer". */
function classify(context: BankContext, caught: CaughtRequestError, itemIndex?: number): Failure {
	const response = caught.cause?.response;
	const status = response?.status ?? (caught.httpCode ? Number(caught.httpCode) : undefined);
	const body = response?.data ?? caught.context?.data;
	if (isEnvelope(body)) {
		const code = String(body.response_code);
		return {
			retryable: code === '80' || code === '29' || status === 429 || status === 503,
			retryAfterMs: retryAfterMs(response?.headers),
			error: bankApiError(
				context.getNode(),
				{ responseCode: code, message: String(body.message ?? ''), httpStatus: status },
				itemIndex,
			),
		};
	}
	const networkCode = caught.cause?.code;
	if (status === undefined && networkCode === undefined && caught.cause?.message) {
		// Neither an HTTP answer nor a network fault: the credential's sign-in refused (its message says why).
		return { retryable: false, error: signInApiError(context.getNode(), caught.cause.message, itemIndex) };
	}
	const summary = status
		? `HTTP ${status} without the bank's JSON envelope`
		: `${networkCode ?? 'network error'}${caught.cause?.message ? ` (${caught.cause.message})` : ''}`;
	return {
		// Only a busy or unreachable bank is worth asking again; a refused sign-in is not (it counts towards lockout).
		retryable: status === 429 || (status !== undefined && status >= 500) || (networkCode !== undefined && NETWORK_CODES.has(networkCode)),
		retryAfterMs: retryAfterMs(response?.headers),
		error: transportApiError(context.getNode(), summary, itemIndex, status),
	};
}

/**
 * Sends one request to the bank and returns the envelope's data. The only place that makes HTTP requests:
 * it picks the path for the credential in use, lets n8n attach (and refresh) the token, unwraps the envelope,
 * turns `status: false` into a NodeApiError whatever the HTTP status, and retries reads (80, 429, 5xx,
 * network) with growing waits. Writes are never re-sent here: a caller that needs that asks first (transfers).
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
	const credentialType = CREDENTIAL_FOR_VARIANT[variant];
	const credentials = await context.getCredentials(credentialType, options.itemIndex);
	const url = routeUrl(credentials.baseUrl as string, routeName, variant);
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
		timeout: REQUEST_LIMITS.timeoutMs,
		...(route.method === 'POST' ? { body: body ?? {} } : {}),
	};
	const attempts = route.safeToRetry ? (options.attempts ?? DEFAULT_READ_ATTEMPTS) : 1;

	for (let attempt = 1; ; attempt++) {
		let failure: Failure;
		try {
			const answer: unknown = await context.helpers.httpRequestWithAuthentication.call(context, credentialType, request);
			if (!isEnvelope(answer)) {
				failure = { retryable: false, error: transportApiError(context.getNode(), 'the answer is not the bank\'s JSON envelope', options.itemIndex) };
			} else if (answer.status !== true) {
				failure = classify(context, { context: { data: answer as unknown as IDataObject } }, options.itemIndex);
			} else {
				return answer as Envelope<T>;
			}
		} catch (caught) {
			failure = classify(context, caught as CaughtRequestError, options.itemIndex);
		}
		if (!failure.retryable || attempt >= attempts) throw failure.error;
		await sleep(failure.retryAfterMs ?? RETRY_BASE_MS * 2 ** (attempt - 1));
	}
}
