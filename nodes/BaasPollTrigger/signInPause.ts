/**
 * A scheduled poll whose credential may not sign in now fails before it asks the bank anything. The decision is
 * the process's sign-in guard's (nodes/common/transport/signInGuard.ts), shared by every node, trigger and the
 * credential's Test: a credential the bank refused (its identity and secret) waits 15 minutes, whatever asks, so
 * any number of triggers on a stale copy cost the bank one refusal per pause; a correct credential with the same
 * client ID or e-mail keeps signing in while that identity is under its limit; a token it holds is used anyway.
 * The credential is read as saved now, so a corrected one is used by the next poll, Fetch Test Event included.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { failureKindOf } from '../common/transport/errors';
import type { ApiVariant } from '../common/transport/routes';
import { clearSignInGuard, credentialView, signInBlockOf } from '../common/transport/session';

/** True for the error a refused sign-in produces (not for a bank that could not be reached at sign-in). */
export function isSignInRefusal(error: unknown): boolean {
	return failureKindOf(error) === 'signInRefused';
}

/** Throws the guard's error (who was refused, until when, what to fix) while the credential may not sign in. */
export async function assertNotPaused(context: IPollFunctions, variant: ApiVariant, nowMs: number): Promise<void> {
	const block = signInBlockOf(context, await credentialView(context, variant), nowMs);
	if (block) throw block;
}

/** Forgets every refusal (tests start over with it). */
export function clearPause(): void {
	clearSignInGuard();
}
