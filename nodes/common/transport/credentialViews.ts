import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { bankAddressOf } from './bankAddress';
import type { ApiVariant } from './routes';
import type { Scrubber } from './scrub';
import { scrubberFor, secretValues } from './scrub';
import type { SignInCandidate } from './signInGuard';
import type { SignInKind } from './tokenExchange';

/**
 * A credential as the transport sees it: which API, where the bank is, and the keys its token and its refused
 * sign-ins are held under (session.ts, signInGuard.ts). Pure: built from the credential's values alone.
 */

export const CREDENTIAL_FOR_VARIANT: Record<ApiVariant, string> = {
	api: 'baasApi',
	web: 'baasDashboardApi',
};

/** What a request needs from the credential, read once per execution. */
export interface CredentialView {
	type: string;
	variant: ApiVariant;
	data: ICredentialDataDecryptedObject;
	baseUrl: string;
	/** Variant, Base URL, identity and a hash of the secret: what a token belongs to. */
	key: string;
	/** Variant + client ID or e-mail, whatever the secret or Base URL (a gateway, `:443`): what the bank locks. */
	identityKey: string;
	/**
	 * The bank's address (however spelled: case, default port, trailing slash), the identity and a hash of the
	 * secret: what the bank refused, not tried again for a while (the sign-in guard). A Base URL corrected to another
	 * bank is tried at once, within the identity's budget of refusals, which is kept whatever the URL.
	 */
	credentialKey: string;
	/** "client ID abc" or "e-mail a@b.c": the identity as errors name it. */
	who: string;
	/** n8n's name of the credential ('' when unknown). */
	name: string;
	scrub: Scrubber;
}

/** How each API signs in: the sign-in kind and the credential fields of the identity and the secret. */
export const SIGN_IN: Record<ApiVariant, { kind: SignInKind; identity: string; secret: string; who: string; fields: string }> = {
	api: { kind: 'integration', identity: 'clientId', secret: 'clientSecret', who: 'client ID', fields: 'Client Secret (or Client ID)' },
	web: { kind: 'dashboard', identity: 'email', secret: 'password', who: 'e-mail', fields: 'Password (or Email)' },
};

/** The sign-in body of a credential. */
export function signInBody(variant: ApiVariant, data: ICredentialDataDecryptedObject): Record<string, string> {
	return variant === 'api'
		? { client_id: String(data.clientId ?? ''), client_secret: String(data.clientSecret ?? '') }
		: { email: String(data.email ?? ''), password: String(data.password ?? '') };
}

function normalisedBaseUrl(data: ICredentialDataDecryptedObject): string {
	return String(data.baseUrl ?? '').trim().replace(/\/+$/, '');
}

/** What a token belongs to (variant, Base URL, identity, a hash of the secret) and a refusal (the same but the Base URL). */
export function tokenKeyOf(variant: ApiVariant, data: ICredentialDataDecryptedObject) {
	const baseUrl = normalisedBaseUrl(data);
	const [who, secret] = [String(data[SIGN_IN[variant].identity] ?? '').trim().toLowerCase(), String(data[SIGN_IN[variant].secret] ?? '')];
	const hash = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
	return { key: hash([variant, baseUrl, who, secret]), credentialKey: hash([variant, bankAddressOf(baseUrl), who, secret]), baseUrl, identity: who };
}

/** The view of a credential's values; `name` is n8n's name of the credential, when known. */
export function viewOf(variant: ApiVariant, data: ICredentialDataDecryptedObject, name = ''): CredentialView {
	const { key, credentialKey, baseUrl, identity } = tokenKeyOf(variant, data);
	return {
		type: CREDENTIAL_FOR_VARIANT[variant],
		variant,
		data,
		baseUrl,
		key,
		identityKey: JSON.stringify([variant, identity]),
		credentialKey,
		who: `${SIGN_IN[variant].who} ${String(data[SIGN_IN[variant].identity] ?? '').trim()}`,
		name,
		scrub: scrubberFor(secretValues(data)),
	};
}

/** The sign-in guard's view of a credential. */
export function candidateOf(view: CredentialView): SignInCandidate {
	return { identityKey: view.identityKey, credentialKey: view.credentialKey, who: view.who, credentialName: view.name, secretFields: SIGN_IN[view.variant].fields };
}
