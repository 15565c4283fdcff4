import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** What both credentials share: where the bank is, where n8n keeps the token, and how it is sent. */

/**
 * The default stays the local sandbox's address although a real user needs their bank's: n8n's editor saves a
 * credential without the values equal to their defaults (getNodeParameters with returnDefaults off, on 1.123
 * and 2.41) and fills them in from the current default when it loads one, so changing this default would
 * silently re-point every saved credential that kept it.
 */
export const baseUrlField: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: 'http://127.0.0.1:4010',
	required: true,
	placeholder: 'https://api.your-bank.example',
	description:
		"Address of your bank's API, from the bank dashboard, without /api/v1. The default is the local sandbox bank (npm run sandbox, npm run dev): replace it with your bank's.",
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
