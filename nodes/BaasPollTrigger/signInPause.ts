/**
 * After the bank refuses the sign-in, scheduled polls stop asking for a while: each poll would otherwise spend one
 * more failed attempt and the bank locks the identity after a few (contract: "repeated failed authentication
 * attempts trigger a temporary account lockout"). Kept in this process's memory because n8n discards a failed
 * poll's static data; a restart of n8n allows one more attempt, far below any lockout threshold.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

const pausedUntil = new Map<string, { untilMs: number; reason: string }>();

function keyOf(context: IPollFunctions): string {
	return `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
}

/** True for the error a refused sign-in produces (not for a bank that could not be reached at sign-in). */
export function isSignInRefusal(error: unknown): boolean {
	return error instanceof NodeApiError && error.context?.signIn === true && /refused to sign in/.test(error.message);
}

/** Throws while a pause is on (scheduled polls only: Fetch Test Event always tries, so a fixed credential shows at once). */
export function assertNotPaused(context: IPollFunctions, nowMs: number): void {
	if (context.getMode() === 'manual') return;
	const pause = pausedUntil.get(keyOf(context));
	if (pause === undefined) return;
	if (nowMs >= pause.untilMs) {
		pausedUntil.delete(keyOf(context));
		return;
	}
	const until = new Date(pause.untilMs).toISOString().slice(11, 16);
	throw new NodeOperationError(context.getNode(), `Polling is paused until ${until} UTC: the bank refused the sign-in`, {
		description: `${pause.reason} No request was sent, so the sign-in cannot get locked. Fix the credential, then use Fetch Test Event to check it; scheduled polls resume at ${until} UTC.`,
	});
}

export function pauseAfterRefusal(context: IPollFunctions, error: NodeApiError, nowMs: number, pauseMs: number): void {
	pausedUntil.set(keyOf(context), { untilMs: nowMs + pauseMs, reason: error.message });
}

/** Lifts the pause (a successful poll, or a test that starts over). */
export function clearPause(context?: IPollFunctions): void {
	if (context === undefined) pausedUntil.clear();
	else pausedUntil.delete(keyOf(context));
}
