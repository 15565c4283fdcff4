/**
 * After the bank refuses a sign-in, scheduled polls stop asking for a while: each poll would otherwise spend one
 * more failed attempt and the bank locks the identity after a few (contract: "repeated failed authentication
 * attempts trigger a temporary account lockout"). The pause belongs to the identity (transport/session.ts), so
 * every trigger and node of this n8n process with that Base URL and client ID or e-mail shares it: any number of
 * triggers make at most one attempt per pause. A restart of n8n allows one more attempt, far below any lockout.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failureKindOf } from '../Baas/transport/errors';
import type { ApiVariant } from '../Baas/transport/routes';
import { clearSignInPauses, credentialView, signInPauseOf } from '../Baas/transport/session';

/** True for the error a refused sign-in produces (not for a bank that could not be reached at sign-in). */
export function isSignInRefusal(error: unknown): boolean {
	return failureKindOf(error) === 'signInRefused';
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * Throws while the credential's identity is paused (scheduled polls only: Fetch Test Event always tries, so a
 * fixed credential shows at once). The credential is read as saved now, so a fix is used by the next attempt.
 */
export async function assertNotPaused(context: IPollFunctions, variant: ApiVariant, nowMs: number): Promise<void> {
	if (context.getMode() === 'manual') return;
	const pause = signInPauseOf(await credentialView(context, variant), nowMs);
	if (pause === undefined) return;
	const until = hhmm(pause.untilMs);
	throw new NodeOperationError(context.getNode(), `Polling is paused until ${until} UTC: the bank refused the sign-in`, {
		description: `${pause.reason} No request was sent, so the sign-in cannot get locked. Fix the credential (Fetch Test Event checks it at once); the first scheduled poll after ${until} UTC signs in again with the credential as saved then.`,
	});
}

/** Lifts every pause (tests start over with it). */
export function clearPause(): void {
	clearSignInPauses();
}
