import { createHash } from 'node:crypto';
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
import type { ApiVariant } from './routes';
import type { Scrubber } from './scrub';
import { scrubberFor, secretValues } from './scrub';
import type { IssuedToken, SignInKind } from './tokenExchange';
import { exchangeForToken, SignInError } from './tokenExchange';

/**
 * The bank's tokens, held once per n8n process (a main or a worker) rather than in each execution: one sign-in
 * per token lifetime whatever the number of items, executions or concurrent requests. A token is renewed shortly
 * before the lifetime the bank gave (as the bank asks), so requests rarely meet an expired token.
 *
 * A token is keyed by credential type, Base URL, identity and a hash of the secret, so it is only ever sent to
 * the Base URL it was issued for, and a changed URL or secret signs in afresh.
 *
 * A refused sign-in is remembered for the rest of the execution: every later request of that execution fails
 * with the same error without asking the bank again, so a wrong password cannot lock the identity. It also
 * pauses the identity (Base URL + client ID or e-mail, whatever the secret) for this whole process: scheduled
 * polls of every trigger ask signInPauseOf() before any request, so any number of them make at most one attempt
 * per pause (the bank locks an identity after a few failures, not a secret).
 */

export type BankContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export const CREDENTIAL_FOR_VARIANT: Record<ApiVariant, string> = {
	api: 'baasApi',
	web: 'baasDashboardApi',
};

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

/** What a request needs from the credential, read once per execution. */
export interface CredentialView {
	type: string;
	variant: ApiVariant;
	data: ICredentialDataDecryptedObject;
	baseUrl: string;
	key: string;
	/** Base URL + client ID or e-mail: what the bank locks after failed sign-ins, whatever the secret. */
	identityKey: string;
	scrub: Scrubber;
}

interface TokenEntry {
	token?: string;
	/** When to sign in again (ms since epoch). */
	renewAt: number;
	pending?: Promise<IssuedToken | SignInError>;
	/** Refused sign-ins by execution (several executions may run with the same wrong credential at once). */
	refusals: Map<unknown, SignInError>;
}

const SIGN_IN: Record<ApiVariant, { kind: SignInKind; identity: string; secret: string }> = {
	api: { kind: 'integration', identity: 'clientId', secret: 'clientSecret' },
	web: { kind: 'dashboard', identity: 'email', secret: 'password' },
};

// Renew this long before the end of a token's life, at most a minute and at most a tenth of the lifetime.
const RENEW_MARGIN_MS = 60_000;
// Executions whose refusal is remembered per credential; older ones have long finished.
const MAX_REFUSALS = 50;
// One entry per credential (and per old secret or URL); more than this many means old ones are stale.
const MAX_ENTRIES = 500;

const tokens = new Map<string, TokenEntry>();

/** How long an identity stays paused after a refused sign-in (tests shorten it). */
export const SIGN_IN_LIMITS = { pauseMs: 15 * 60_000 };

export interface SignInPause {
	untilMs: number;
	/** The bank's refusal as users see it (scrubbed). */
	reason: string;
	/** The credential (token key) the bank refused. */
	refusedKey: string;
}

const signInPauses = new Map<string, SignInPause>();
const credentialReads = new WeakMap<object, Map<string, Promise<CredentialView>>>();

/** The sign-in body of a credential, for the node and for the credential's own preAuthentication. */
export function signInBody(variant: ApiVariant, data: ICredentialDataDecryptedObject): Record<string, string> {
	return variant === 'api'
		? { client_id: String(data.clientId ?? ''), client_secret: String(data.clientSecret ?? '') }
		: { email: String(data.email ?? ''), password: String(data.password ?? '') };
}

/** Exchanges the credential for a token (used by the node's cache and by the credential's Test). */
export async function signIn(requester: IHttpRequestHelper, variant: ApiVariant, data: ICredentialDataDecryptedObject): Promise<IssuedToken> {
	return await exchangeForToken(requester, String(data.baseUrl ?? ''), SIGN_IN[variant].kind, signInBody(variant, data));
}

function normalisedBaseUrl(data: ICredentialDataDecryptedObject): string {
	return String(data.baseUrl ?? '').trim().replace(/\/+$/, '');
}

function viewOf(variant: ApiVariant, data: ICredentialDataDecryptedObject): CredentialView {
	const baseUrl = normalisedBaseUrl(data);
	const { identity, secret } = SIGN_IN[variant];
	const who = String(data[identity] ?? '').trim().toLowerCase();
	const key = createHash('sha256').update(JSON.stringify([variant, baseUrl, who, String(data[secret] ?? '')])).digest('hex');
	const identityKey = JSON.stringify([variant, baseUrl.toLowerCase(), who]);
	return { type: CREDENTIAL_FOR_VARIANT[variant], variant, data, baseUrl, key, identityKey, scrub: scrubberFor(secretValues(data)) };
}

/**
 * The pause on the credential's identity after a refused sign-in, or undefined when there is none (any more),
 * or when this credential needs no sign-in: a token it was given is still held (a fixed credential that Fetch
 * Test Event or another node signed in with).
 */
export function signInPauseOf(view: CredentialView, nowMs = Date.now()): SignInPause | undefined {
	const pause = signInPauses.get(view.identityKey);
	if (pause === undefined) return undefined;
	if (nowMs >= pause.untilMs) {
		signInPauses.delete(view.identityKey);
		return undefined;
	}
	const held = tokens.get(view.key);
	return held?.token !== undefined && Date.now() < held.renewAt ? undefined : pause;
}

/** Lifts every identity's pause (tests start cold with it). */
export function clearSignInPauses(): void {
	signInPauses.clear();
}

/**
 * Forgets what was read once per context: a scheduled poll keeps one context for a whole activation, so each
 * poll calls this first to read the credential as it is saved now and to let a refusal of an earlier poll go
 * (the identity's pause is what keeps the next attempt away until it ends).
 */
export function startAfresh(context: BankContext): void {
	credentialReads.delete(context);
	variants.delete(context);
	for (const entry of tokens.values()) entry.refusals.delete(context);
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
		read = context.getCredentials(CREDENTIAL_FOR_VARIANT[variant], itemIndex).then((data) => viewOf(variant, data));
		// A failed read (no credential selected) is not kept: the next item reports it again.
		read.catch(() => reads.delete(variant));
		reads.set(variant, read);
	}
	return await read;
}

/** What "this execution" is: its id, or the context itself where n8n gives none (load options, tests). */
function scopeOf(context: BankContext): unknown {
	let id: string | undefined;
	try {
		id = context.getExecutionId();
	} catch {
		id = undefined;
	}
	return id ? `execution:${id}` : context;
}

function expiresAt(issued: IssuedToken, now: number): number {
	const lifetimeMs = (issued.expiresInSeconds ?? Infinity) * 1000;
	return now + lifetimeMs - Math.min(RENEW_MARGIN_MS, lifetimeMs / 10);
}

function entryFor(key: string): TokenEntry {
	let entry = tokens.get(key);
	if (!entry) {
		if (tokens.size >= MAX_ENTRIES) tokens.delete(tokens.keys().next().value as string);
		entry = { renewAt: 0, refusals: new Map() };
		tokens.set(key, entry);
	}
	return entry;
}

export interface TokenOptions {
	/** A token the bank just called expired or invalid: unless another request already replaced it, sign in again. */
	replacing?: string;
}

/**
 * A valid token for the credential: the one held, or a new one from a single sign-in shared by every request
 * waiting for it. A failed sign-in is thrown as the node error users see (kind as data, text scrubbed); when the
 * bank refused one earlier in this execution, that refusal is thrown again without asking the bank.
 */
export async function accessToken(
	context: BankContext,
	view: CredentialView,
	itemIndex?: number,
	options: TokenOptions = {},
): Promise<string> {
	const entry = entryFor(view.key);
	const scope = scopeOf(context);
	const failed = (error: SignInError) => signInApiError(context.getNode(), error, itemIndex, view.scrub);
	const refused = entry.refusals.get(scope);
	if (refused) throw failed(refused);
	if (entry.token !== undefined && entry.token !== options.replacing && Date.now() < entry.renewAt) return entry.token;
	if (!entry.pending) {
		if (options.replacing !== undefined && entry.token === options.replacing) entry.token = undefined;
		entry.pending = signIn(context as unknown as IHttpRequestHelper, view.variant, view.data).then(
			(issued) => {
				entry.token = issued.token;
				entry.renewAt = expiresAt(issued, Date.now());
				entry.refusals.clear();
				// The refused credential itself signed in (the bank's refusal has passed): lift the pause.
				if (signInPauses.get(view.identityKey)?.refusedKey === view.key) signInPauses.delete(view.identityKey);
				return issued;
			},
			(error: unknown) => {
				const failure =
					error instanceof SignInError ? error : new SignInError(`Could not sign in: ${(error as Error).message}`, false, '');
				if (failure.refused) {
					signInPauses.set(view.identityKey, {
						untilMs: Date.now() + SIGN_IN_LIMITS.pauseMs,
						reason: view.scrub(failure.message),
						refusedKey: view.key,
					});
					entry.refusals.set(scope, failure);
					if (entry.refusals.size > MAX_REFUSALS) entry.refusals.delete(entry.refusals.keys().next().value);
				}
				return failure;
			},
		);
		void entry.pending.finally(() => (entry.pending = undefined));
	}
	const outcome = await entry.pending;
	if (outcome instanceof SignInError) throw failed(outcome);
	return outcome.token;
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

/** Drops every held token and remembered refusal, so the next request signs in (tests start cold with it). */
export function forgetHeldTokens(): void {
	tokens.clear();
	signInPauses.clear();
}
