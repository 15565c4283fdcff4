import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import type { ApiVariant } from './transport/session';
import { CREDENTIAL_FOR_VARIANT, testSignIn } from './transport/session';
import { scrubPatterns } from './transport/scrub';
import { SignInError } from './transport/tokenExchange';

/**
 * The credentials' Test button. The nodes name it in their credentials list (`testedBy`), so n8n's credential
 * tester (1.123 and 2.41) calls it with the values in the dialog. A declarative `test` on the credential would
 * not do: n8n sends its request with the token it stored earlier and signs in only when none is stored, so a
 * wrong secret passed the Test (issue 27).
 */
export const CREDENTIAL_TEST = 'baasSignIn';

/**
 * The sign-in's request sent through the one helper n8n gives a credential test (CredentialTestContext:
 * `helpers.request`, the legacy request API; there is no httpRequest there on either n8n line), answering as
 * httpRequest does with returnFullResponse and ignoreHttpStatusErrors.
 */
function requesterOf(context: ICredentialTestFunctions): IHttpRequestHelper {
	const httpRequest = async (options: IHttpRequestOptions) =>
		await context.helpers.request({
			method: options.method,
			uri: options.url,
			body: options.body,
			json: true,
			timeout: options.timeout,
			simple: false,
			resolveWithFullResponse: true,
		});
	return { helpers: { httpRequest } } as unknown as IHttpRequestHelper;
}

function variantOfCredential(credential: ICredentialsDecrypted): ApiVariant {
	if (credential.type === CREDENTIAL_FOR_VARIANT.web) return 'web';
	if (credential.type === CREDENTIAL_FOR_VARIANT.api) return 'api';
	return credential.data?.email !== undefined ? 'web' : 'api';
}

/** Signs in with the dialog's values, through the process's sign-in guard; the bank's refusal is the message. */
export async function baasSignIn(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	try {
		const who = await testSignIn(requesterOf(this), variantOfCredential(credential), credential.data ?? {}, credential.name ?? '');
		return { status: 'OK', message: `Signed in as ${who}` };
	} catch (error) {
		if (error instanceof SignInError) return { status: 'Error', message: [error.message, error.advice].filter(Boolean).join(' ') };
		return { status: 'Error', message: scrubPatterns(`Could not sign in: ${(error as Error).message}`) };
	}
}
