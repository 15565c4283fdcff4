import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestHelper,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { signInApiError } from './errors';
import type { CredentialView } from './credentialViews';
import { candidateOf, CREDENTIAL_FOR_VARIANT, SIGN_IN, signInBody, tokenKeyOf, viewOf } from './credentialViews';
import type { ApiVariant } from './routes';
import { clearSignInGuard, guardedSignIn, signInBlock } from './signInGuard';
import type { IssuedToken } from './tokenExchange';
import { exchangeForToken, SignInError } from './tokenExchange';

export { clearSignInGuard, SIGN_IN_LIMITS } from './signInGuard';
export type { ApiVariant } from './routes';
export type { CredentialView } from './credentialViews';
export { CREDENTIAL_FOR_VARIANT, signInBody, viewOf } from './credentialViews';

/**
 * The bank's tokens, held once per n8n process (a main or a worker) rather than in each execution: one sign-in
 * per token lifetime whatever the number of items, executions or concurrent requests. A token is renewed shortly
 * before the lifetime the bank gave (as the bank asks), so requests rarely meet an expired token.
 *
 * A token is keyed by credential type, Base URL, identity and a hash of the secret, so it is only ever sent to
 * the Base URL it was issued for, and a changed URL or secret signs in afresh. The token n8n itself stores in the
 * credential (preAuthentication, for nodes such as the HTTP Request node) is sealed with the same key, so it is
 * not sent either once the secret or the Base URL changed (credentials/common.ts).
 *
 * Every sign-in goes through the process's sign-in guard (signInGuard.ts): a refused credential is not tried
 * again for a while, whatever execution, trigger or Test asks, and an identity never gets near the bank's
 * lockout.
 */

export type BankContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;


const variants = new WeakMap<object, ApiVariant>();

/**
 * The API variant chosen by the node's Authentication parameter (API client → /api/, dashboard user → /web/),
 * read once per execution context: it is the same for every item.
 */
export function variantOf(context: BankContext): ApiVariant {
	let variant = variants.get(context);
	if (variant === undefined) {
		// Execute contexts take (name, itemIndex, fallback); hook, webhook and load-options contexts (name, fallback).
		const authentication = (
			'getInputData' in context
				? context.getNodeParameter('authentication', 0, 'apiClient')
				: (context as ILoadOptionsFunctions).getNodeParameter('authentication', 'apiClient')
		) as string;
		variant = authentication === 'dashboardUser' ? 'web' : 'api';
		variants.set(context, variant);
	}
	return variant;
}


interface TokenEntry {
	token?: string;
	/** When to sign in again (ms since epoch). */
	renewAt: number;
	pending?: Promise<IssuedToken | SignInError>;
}


// Renew this long before the end of a token's life, at most a minute and at most a tenth of the lifetime.
const RENEW_MARGIN_MS = 60_000;
// One entry per credential (and per old secret or URL); more than this many means old ones are stale.
const MAX_ENTRIES = 500;

const tokens = new Map<string, TokenEntry>();
const credentialReads = new WeakMap<object, Map<string, Promise<CredentialView>>>();

/** Exchanges the credential for a token, unguarded: only guardedSignIn calls it. */
async function signIn(requester: IHttpRequestHelper, variant: ApiVariant, data: ICredentialDataDecryptedObject): Promise<IssuedToken> {
	return await exchangeForToken(requester, String(data.baseUrl ?? ''), SIGN_IN[variant].kind, signInBody(variant, data));
}





/**
 * Forgets what was read once per context: a scheduled poll keeps one context for a whole activation, so each
 * poll calls this first to read the credential as it is saved now.
 */
export function startAfresh(context: BankContext): void {
	credentialReads.delete(context);
	variants.delete(context);
}

/**
 * The node's credential for `variant`, read once per execution context (the same for every item) instead of
 * once per request.
 */
export async function credentialView(context: BankContext, variant: ApiVariant, itemIndex?: number): Promise<CredentialView> {
	let reads = credentialReads.get(context);
	if (!reads) credentialReads.set(context, (reads = new Map()));
	let read = reads.get(variant);
	if (!read) {
		const type = CREDENTIAL_FOR_VARIANT[variant];
		const name = context.getNode().credentials?.[type]?.name ?? '';
		read = context.getCredentials(type, itemIndex).then((data) => viewOf(variant, data, name));
		// A failed read (no credential selected) is not kept: the next item reports it again.
		read.catch(() => reads.delete(variant));
		reads.set(variant, read);
	}
	return await read;
}

function expiresAt(issued: IssuedToken, now: number): number {
	const lifetimeMs = (issued.expiresInSeconds ?? Infinity) * 1000;
	return now + lifetimeMs - Math.min(RENEW_MARGIN_MS, lifetimeMs / 10);
}

function entryFor(key: string): TokenEntry {
	let entry = tokens.get(key);
	if (!entry) {
		if (tokens.size >= MAX_ENTRIES) tokens.delete(tokens.keys().next().value as string);
		entry = { renewAt: 0 };
		tokens.set(key, entry);
	}
	return entry;
}

/** A sign-in for the credential, through the guard, shared by every request of the process waiting for one. */
async function sharedSignIn(requester: IHttpRequestHelper, view: CredentialView): Promise<IssuedToken | SignInError> {
	const entry = entryFor(view.key);
	if (!entry.pending) {
		const attempt = () =>
			signIn(requester, view.variant, view.data).catch((error: unknown) =>
				error instanceof SignInError ? error : new SignInError(view.scrub(`Could not sign in: ${(error as Error).message}`), false, ''),
			);
		entry.pending = guardedSignIn(candidateOf(view), attempt).then((outcome) => {
			if (!(outcome instanceof SignInError)) {
				entry.token = outcome.token;
				entry.renewAt = expiresAt(outcome, Date.now());
			}
			return outcome;
		});
		void entry.pending.finally(() => (entry.pending = undefined));
	}
	return await entry.pending;
}

/**
 * A valid token for the credential: the one held, or a new one from a single sign-in shared by every request
 * waiting for it; or the SignInError saying why there is none (text scrubbed).
 */
async function heldOrNewToken(requester: IHttpRequestHelper, view: CredentialView, replacing?: string): Promise<string | SignInError> {
	const entry = entryFor(view.key);
	if (entry.token !== undefined && entry.token !== replacing && Date.now() < entry.renewAt) return entry.token;
	if (replacing !== undefined && entry.token === replacing && !entry.pending) entry.token = undefined;
	const outcome = await sharedSignIn(requester, view);
	return outcome instanceof SignInError ? outcome : outcome.token;
}

/**
 * The error a request of the node's credential would get from the sign-in guard now, or undefined when it would
 * go ahead: it holds a valid token, or may sign in.
 */
export function signInBlockOf(context: BankContext, view: CredentialView, nowMs = Date.now()) {
	const entry = tokens.get(view.key);
	if (entry?.token !== undefined && nowMs < entry.renewAt) return undefined;
	const block = signInBlock(candidateOf(view), nowMs);
	return block && signInApiError(context.getNode(), block, undefined, view.scrub);
}

export interface TokenOptions {
	/** A token the bank just called expired or invalid: unless another request already replaced it, sign in again. */
	replacing?: string;
}

/**
 * A valid token for the node's credential (see heldOrNewToken). A failed sign-in is thrown as the node error
 * users see (kind as data, text scrubbed).
 */
export async function accessToken(
	context: BankContext,
	view: CredentialView,
	itemIndex?: number,
	options: TokenOptions = {},
): Promise<string> {
	const outcome = await heldOrNewToken(context as unknown as IHttpRequestHelper, view, options.replacing);
	if (outcome instanceof SignInError) throw signInApiError(context.getNode(), outcome, itemIndex, view.scrub);
	return outcome;
}

/**
 * The credential's Test: a sign-in with exactly the values given (never a token held or stored), through the
 * guard, so a refused secret is not asked again and the identity cannot get locked by Tests. The token it gets
 * is kept, as any other. Returns who signed in; throws the SignInError otherwise.
 */
export async function testSignIn(requester: IHttpRequestHelper, variant: ApiVariant, data: ICredentialDataDecryptedObject, name: string): Promise<string> {
	const view = viewOf(variant, data, name);
	const outcome = await sharedSignIn(requester, view);
	if (outcome instanceof SignInError) throw outcome;
	return view.who;
}

/** Tags a token with the key of the credential values it came from: `<key tag>~<token>` (a JWT holds no "~"). */
function seal(key: string, token: string): string {
	return `${key.slice(0, 16)}~${token}`;
}

/** The token of a sealed value, when it was sealed for the credential values of `key`; undefined otherwise. */
function unseal(key: string, sealed: unknown): string | undefined {
	if (typeof sealed !== 'string') return undefined;
	const at = sealed.indexOf('~');
	return at > 0 && sealed.slice(0, at) === key.slice(0, 16) ? sealed.slice(at + 1) : undefined;
}

/**
 * n8n's preAuthentication (nodes that let n8n handle the credential, such as the HTTP Request node): a token
 * for these values through the guard, sealed to them. n8n calls it when its stored token is empty, or after the
 * bank refused it (then that token is replaced, not handed back).
 */
export async function tokenForN8n(requester: IHttpRequestHelper, variant: ApiVariant, data: ICredentialDataDecryptedObject): Promise<string> {
	const view = viewOf(variant, data);
	const outcome = await heldOrNewToken(requester, view, unseal(view.key, data.accessToken));
	if (outcome instanceof SignInError) throw outcome;
	return seal(view.key, outcome);
}

/** The token to send with these credential values: the stored one when it was issued for them, else none. */
export function tokenFor(variant: ApiVariant, data: ICredentialDataDecryptedObject): string | undefined {
	return unseal(tokenKeyOf(variant, data).key, data.accessToken);
}

/** A token for a request of the node, in the form the credential's authenticate takes. */
export function sealedFor(view: CredentialView, token: string): string {
	return seal(view.key, token);
}

export interface AccessTokenOptions {
	variant?: ApiVariant;
	itemIndex?: number;
	/** A token known to be stale: when it is still the one held, a fresh one is obtained first. */
	replacing?: string;
}

/**
 * The token the node holds for its credential, for the one operation whose body must carry it (Session →
 * Verify). The token must never be put into output, errors or logs.
 */
export async function currentAccessToken(context: BankContext, options: AccessTokenOptions = {}): Promise<string> {
	const view = await credentialView(context, options.variant ?? variantOf(context), options.itemIndex);
	return await accessToken(context, view, options.itemIndex, { replacing: options.replacing });
}

/** Drops every held token and the guard's memory, so the next request signs in (tests start cold with it). */
export function forgetHeldTokens(): void {
	tokens.clear();
	clearSignInGuard();
}
