/**
 * A registration the bank could not take while n8n was starting, tried again from the trigger function until it
 * can. n8n 2.41 gives a failing start-up activation 5 attempts within 15 s and then leaves the workflow unpublished
 * until someone publishes it again; 1.123 retries it, waiting twice as long each time up to 24 hours. So at start-up
 * create() does not fail: it leaves the attempt here, and the trigger function, which n8n runs for as long as the
 * workflow is active, makes it again after 2 s, 4 s … then every minute.
 */
import type { ITriggerFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/** Waits between attempts: the first, doubled each time up to the longest. */
export const REGISTRATION_RETRY = { firstWaitMs: 2_000, longestWaitMs: 60_000 };

/**
 * Keyed by the node's static data object of one activation: n8n builds the hook context (create) and the trigger
 * context of an activation from one Workflow, so both see the same object, and nothing here outlives it.
 */
const due = new WeakMap<object, () => Promise<void>>();

/** Leaves a failed registration for the trigger function of the same activation to make again. */
export function registerLater(staticData: object, attempt: () => Promise<void>): void {
	due.set(staticData, attempt);
}

/**
 * Runs until the returned function is called (n8n calls it when the workflow is deactivated or n8n stops): makes
 * the registration left by registerLater until one attempt succeeds. A failed attempt is said at debug level
 * only: create() already warned, and says in the log when the registration is made.
 */
export function keepTryingToRegister(context: ITriggerFunctions): () => Promise<void> {
	const staticData = context.getWorkflowStaticData('node');
	const stopped = new AbortController();
	const loop = async () => {
		for (let wait = REGISTRATION_RETRY.firstWaitMs; ; wait = Math.min(wait * 2, REGISTRATION_RETRY.longestWaitMs)) {
			try {
				// n8n 1.x's sleep ignores the signal: the loop then ends when the wait is over.
				await sleep(wait, stopped.signal);
			} catch {
				return;
			}
			if (stopped.signal.aborted) return;
			const attempt = due.get(staticData);
			if (attempt === undefined) continue;
			try {
				await attempt();
				due.delete(staticData);
			} catch (error) {
				context.logger.debug(`BaaS Trigger "${context.getNode().name}": registration with the bank failed again (${(error as Error).message}); next attempt in ${Math.min(wait * 2, REGISTRATION_RETRY.longestWaitMs) / 1000} s`);
			}
		}
	};
	void loop();
	return async () => stopped.abort();
}
