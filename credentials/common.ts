import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** What both credentials share: where the bank is, where n8n keeps the token, and how it is sent. */

/**
 * No default: a real user's credential must name their bank, never fall back to a local sandbox address that
 * answers nothing (npm run dev, the tests and the examples' credentials set it explicitly).
 */
export const baseUrlField: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.your-bank.example',
	description:
		'Address of your bank\'s API, from the bank dashboard, without /api/v1. For the local sandbox bank (npm run sandbox): http://127.0.0.1:4010.',
};

/**
 * Filled by preAuthentication when n8n tests the credential. The node itself holds its tokens per n8n process
 * (nodes/Baas/transport/session.ts) and passes the one to use in here, so this field is never read back.
 */
export const accessTokenField: INodeProperties = {
	displayName: 'Access Token',
	name: 'accessToken',
	type: 'hidden',
	typeOptions: { expirable: true, password: true },
	default: '',
};

/**
 * Adds the Bearer header. A function rather than n8n's generic `={{$credentials.accessToken}}` so that no
 * expression is resolved per request.
 */
export async function bearerAuthentication(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return {
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.accessToken ?? '')}` },
	};
}

/** The credential test's base URL: the Base URL without trailing slashes. */
export const TEST_BASE_URL = '={{$credentials.baseUrl.replace(/\\/+$/, "")}}';
