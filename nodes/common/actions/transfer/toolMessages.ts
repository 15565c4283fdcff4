import type { NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { outcomeOf } from '../writeOutcome';
import type { TransferBody } from './exactlyOnce';

/**
 * A model calling Send money as a tool reads the error's message and nothing else (n8n hands a failing tool step
 * only `{ error: message }`). The node's own refusals and unknown outcomes already carry their advice in the
 * message; a refusal by the bank (insufficient funds, a blocked account) or a bad input carries only what went
 * wrong, so the reference, that nothing moved and the hint are put into its message here.
 */
export function toolReadableRefusal<E extends NodeApiError | NodeOperationError>(error: E, body: TransferBody): E {
	const reference = body.reference_number;
	if (error.message.includes(reference)) return error;
	const hint = error.description ? ` ${error.description.trim()}` : '';
	if (outcomeOf(error) === 'refused') {
		error.message =
			error instanceof NodeApiError
				? `Transfer ${reference} was not made: the bank answered "${error.message.trim()}". No money moved.${hint}`
				: `Transfer ${reference} was not sent: ${error.message.trim()}. Nothing was sent to the bank.${hint}`;
	} else if (outcomeOf(error) === 'unknown') {
		error.message = `Transfer ${reference}: outcome unknown (${error.message.trim()}). Keep reference ${reference}: check it with Transfer → Get Status before anything else, and never send this payment again under a new reference.${hint}`;
	}
	return error;
}
