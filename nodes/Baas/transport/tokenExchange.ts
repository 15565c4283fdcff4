import type { IHttpRequestHelper } from 'n8n-workflow';

import { routeUrl } from './routes';
import { scrubberFor } from './scrub';

export type SignInKind = 'integration' | 'dashboard';

const WHAT_TO_CHECK: Record<SignInKind, string> = {
	integration: 'Check the Client ID and Client Secret of the BaaS API credential.',
	dashboard: 'Check the e-mail and password of the BaaS Dashboard credential.',
};

interface TokenAnswer {
	statusCode?: number;
	body?: { status?: boolean; response_code?: string; message?: string; data?: { token?: unknown; expires_in?: unknown } };
}

export interface IssuedToken {
	token: string;
	/** Lifetime the bank gave (expires_in), in seconds; undefined when it did not say. */
	expiresInSeconds?: number;
}

/**
 * Why a sign-in gave no token, as data: `refused` when the bank answered no (a wrong secret, a locked
 * identity: asking again counts towards lockout), otherwise the bank could not be reached (asking again is
 * harmless). The message is already clean of secrets and says what to do.
 */
export class SignInError extends Error {
	constructor(
		message: string,
		readonly refused: boolean,
		readonly responseCode: string,
		readonly httpStatus?: number,
	) {
		super(message);
		this.name = 'SignInError';
	}
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
		throw new SignInError(scrub(`Could not reach the bank at ${baseUrl} to sign in (${networkCode}). Check the Base URL.`), false, '');
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
		);
	}
	const code = envelope.response_code;
	// A busy bank (80, 29, 429, 5xx) did not judge the credentials: asking again later is no failed attempt.
	const busy = code === '80' || code === '29' || status === 429 || (status ?? 0) >= 500;
	if (busy) {
		throw new SignInError(scrub(`The bank could not sign in now: ${envelope.message ?? 'busy'} [${code}]. Try again in a moment.`), false, code, status);
	}
	const locked = status === 423 ? ' Too many failed attempts locked this sign-in; wait before trying again.' : '';
	throw new SignInError(
		scrub(`The bank refused to sign in: ${envelope.message ?? 'no reason given'} [${code}].${locked} ${WHAT_TO_CHECK[kind]}`),
		true,
		code,
		status,
	);
}
