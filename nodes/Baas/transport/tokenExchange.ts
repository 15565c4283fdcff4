import type { IHttpRequestHelper } from 'n8n-workflow';

import { routeUrl } from './routes';

type Kind = 'integration' | 'dashboard';

const WHAT_TO_CHECK: Record<Kind, string> = {
	integration: 'Check the Client ID and Client Secret of the BaaS API credential.',
	dashboard: 'Check the e-mail and password of the BaaS Dashboard credential.',
};

interface TokenAnswer {
	statusCode?: number;
	body?: { status?: boolean; response_code?: string; message?: string; data?: { token?: unknown } };
}

/**
 * Exchanges credentials for a JWT (generate_token or auth/web/login). Used by the credentials'
 * preAuthentication. Errors carry the bank's message and code only: the request body holds the secret,
 * so no error from the HTTP client (which keeps the request) is passed on.
 */
export async function exchangeForToken(
	requester: IHttpRequestHelper,
	baseUrl: string,
	kind: Kind,
	body: Record<string, string>,
): Promise<string> {
	const url = routeUrl(baseUrl ?? '', kind === 'integration' ? 'generateToken' : 'login', kind === 'integration' ? 'api' : 'web');
	let answer: TokenAnswer | undefined;
	let networkProblem: string | undefined;
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
		const code = (caught as { code?: string }).code;
		networkProblem = code ?? 'no answer';
	}
	if (networkProblem !== undefined) {
		throw new Error(`Could not reach the bank at ${baseUrl} to sign in (${networkProblem}). Check the Base URL.`);
	}
	const envelope = answer?.body;
	const token = envelope?.data?.token;
	if (envelope?.status === true && typeof token === 'string' && token !== '') return token;
	const code = envelope?.response_code ?? 'none';
	const bankMessage = envelope?.message ?? `HTTP ${answer?.statusCode ?? '?'} without the bank's JSON envelope`;
	const locked = answer?.statusCode === 423 ? ' Too many failed attempts locked this sign-in; wait before trying again.' : '';
	throw new Error(`The bank refused to sign in: ${bankMessage} [${code}].${locked} ${WHAT_TO_CHECK[kind]}`);
}
