import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiVariant } from '../nodes/common/transport/session';
import { tokenFor, tokenForN8n } from '../nodes/common/transport/session';

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
 * Read only: the nodes refuse every write made with the credential before any request (nodes/common/actions/readOnly.ts).
 * A credential saved before the field existed loads with the default, so it keeps writing.
 */
export const readOnlyField: INodeProperties = {
	displayName: 'Read Only',
	name: 'readOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to refuse, before any request, every operation that changes something at the bank (payments, accounts, webhooks, team and roles). Meant for AI agents and MCP clients; reads work as before.',
};

/**
 * The token n8n itself keeps for nodes that let n8n handle the credential (the HTTP Request node with this
 * credential type): filled by preAuthentication, sealed to the Base URL, identity and secret it came from. The
 * BaaS nodes hold their tokens per n8n process (nodes/common/transport/session.ts) and never read it back.
 */
export const accessTokenField: INodeProperties = {
	displayName: 'Access Token',
	name: 'accessToken',
	type: 'hidden',
	typeOptions: { expirable: true, password: true },
	default: '',
};

/** n8n's preAuthentication: a token through the process's sign-in guard, sealed to these values. */
export function preAuthenticationFor(variant: ApiVariant) {
	return async function preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return { accessToken: await tokenForN8n(this, variant, credentials) };
	};
}

/**
 * Adds the Bearer header with the token stored for exactly these values. A token from before the secret or the
 * Base URL was edited is not sent: the bank answers 401 and n8n signs in again (preAuthentication). A function
 * rather than n8n's generic `={{$credentials.accessToken}}` so that no expression is resolved per request.
 */
export function bearerAuthenticationFor(variant: ApiVariant) {
	return async function authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const token = tokenFor(variant, credentials);
		if (token === undefined) return requestOptions;
		return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` } };
	};
}
