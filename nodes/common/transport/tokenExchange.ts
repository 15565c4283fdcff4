import type { IHttpRequestHelper } from 'n8n-workflow';

import { routeUrl } from './routes';
import { scrubberFor } from './scrub';

export type SignInKind = 'integration' | 'dashboard';

interface TokenAnswer {
	statusCode?: number;
	headers?: Record<string, string | string[] | undefined>;
	body?: { status?: boolean; response_code?: string; message?: string; data?: { token?: unknown; expires_in?: unknown } };
}

export interface IssuedToken {
	token: string;
	/** Lifetime the bank gave (expires_in), in seconds; undefined when it did not say. */
	expiresInSeconds?: number;
}

/** What a SignInError says beyond its message, as data. */
export interface SignInErrorDetails {
	/** What to do about it, for the error's description (the credential's Test shows it after the message). */
	advice?: string;
	/** The bank's own words and code, e.g. "Invalid client credentials [41]" (scrubbed). */
	bankReason?: string;
	/** How long the bank asked to wait (Retry-After), in ms. */
	retryAfterMs?: number;
	/** When this credential may sign in again (the sign-in guard's pause), ms since epoch. */
	notTriedUntilMs?: number;
}

/**
 * Why a sign-in gave no token, as data: `refused` when the bank answered no (a wrong secret, a locked
 * identity: asking again counts towards lockout) or the sign-in guard did not ask it again, otherwise the bank
 * could not be reached (asking again is harmless). The message is already clean of secrets.
 */
export class SignInError extends Error {
	readonly advice?: string;
	readonly bankReason?: string;
	readonly retryAfterMs?: number;
	readonly notTriedUntilMs?: number;

	constructor(
		message: string,
		readonly refused: boolean,
		readonly responseCode: string,
		readonly httpStatus?: number,
		details: SignInErrorDetails = {},
	) {
		super(message);
		this.name = 'SignInError';
		Object.assign(this, details);
	}
}

const REACH_ADVICE = 'Check the Base URL in the credential and that the bank is reachable from n8n.';

function retryAfterMsOf(answer: TokenAnswer | undefined): number | undefined {
	const value = answer?.headers?.['retry-after'];
	const seconds = Number(Array.isArray(value) ? value[0] : value);
	return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * Exchanges credentials for a JWT (generate_token or auth/web/login). The error never carries the HTTP
 * client's error, which holds the request body (the secret); its text is scrubbed of the secret as well,
 * in case the bank echoes it.
 */
export async function exchangeForToken(
	requester: IHttpRequestHelper,
	baseUrl: string,
	kind: SignInKind,
	body: Record<string, string>,
): Promise<IssuedToken> {
	const scrub = scrubberFor(Object.values(body).filter((value) => value !== body.client_id && value !== body.email));
	const url = routeUrl(baseUrl ?? '', kind === 'integration' ? 'generateToken' : 'login', kind === 'integration' ? 'api' : 'web');
	let answer: TokenAnswer | undefined;
	let networkCode: string | undefined;
	try {
		answer = (await requester.helpers.httpRequest({
			method: 'POST',
			url: url as string,
			body,
			json: true,
			timeout: 30_000,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		})) as TokenAnswer;
	} catch (caught) {
		networkCode = (caught as { code?: string }).code ?? 'no answer';
	}
	if (networkCode !== undefined) {
		throw new SignInError(scrub(`Could not reach the bank at ${baseUrl} to sign in (${networkCode}). Check the Base URL.`), false, '', undefined, {
			advice: REACH_ADVICE,
		});
	}
	const envelope = answer?.body;
	const token = envelope?.data?.token;
	if (envelope?.status === true && typeof token === 'string' && token !== '') {
		const expiresIn = Number(envelope.data?.expires_in);
		return { token, expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined };
	}
	const status = answer?.statusCode;
	if (envelope?.status !== false || typeof envelope.response_code !== 'string') {
		// No envelope (a proxy's page, a wrong path): the bank did not decide, so this is not a refusal.
		throw new SignInError(
			scrub(`Could not sign in at ${baseUrl}: HTTP ${status ?? '?'} without the bank's JSON envelope. Check the Base URL.`),
			false,
			'',
			status,
			{ advice: REACH_ADVICE },
		);
	}
	const code = envelope.response_code;
	const bankReason = scrub(`${envelope.message ?? 'no reason given'} [${code}]`);
	const retryAfterMs = retryAfterMsOf(answer);
	// A busy bank (80, 29, 429, 5xx) did not judge the credentials: asking again later is no failed attempt.
	const busy = code === '80' || code === '29' || status === 429 || (status ?? 0) >= 500;
	if (busy) {
		throw new SignInError(`The bank could not sign in now: ${bankReason}. Try again in a moment.`, false, code, status, {
			advice: 'The bank did not judge the credential: run again in a moment.',
			bankReason,
			retryAfterMs,
		});
	}
	// The sign-in guard (signInGuard.ts) words a refusal with the credential's name and when it may be tried again.
	throw new SignInError(`The bank refused to sign in: ${bankReason}.`, true, code, status, { bankReason, retryAfterMs });
}
