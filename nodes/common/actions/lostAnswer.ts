import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError, outcomeUnknown, responseCodeOf } from '../transport/outcome';
import { unknownOutcomeError, whyNoAnswer, withOutcome } from './writeOutcome';

/** How a write other than a transfer is made safe when its answer is lost (the bank may or may not have acted). */
export interface LostAnswerPlan {
	/** The write, for messages: `Account for "Ada Obi"`. */
	what: string;
	/** Which operation and field a person uses to see whether it happened. */
	howToCheck: string;
	/** Looks for the write's result at the bank: the item to return when found, undefined when not. */
	find?: () => Promise<IDataObject | undefined>;
	/**
	 * Whether one re-send after "not found" cannot make a second: the bank refuses a repeat (26 for an e-mail or
	 * role name it knows) or the write sets a state rather than adding a record.
	 */
	resendIsSafe?: boolean;
	/** A refusal of the re-send that means the first send did it (a role already deleted: 25): the item to return. */
	doneWhenResendRefused?: (responseCode: string) => IDataObject | undefined;
}

/**
 * Sends a write once. A refusal is returned as the bank's error (outcome refused). When the answer is lost,
 * the bank is asked (plan.find) before anything is sent again; a write found is returned, not repeated; one
 * that is not found is re-sent only when that cannot make a second. Every other end is outcome unknown with
 * how to check, never an invitation to run it again blindly.
 */
export async function writeOnce(
	context: IExecuteFunctions,
	itemIndex: number,
	send: () => Promise<IDataObject>,
	plan: LostAnswerPlan,
): Promise<IDataObject> {
	const node = context.getNode();
	const unknown = (detail: string) =>
		unknownOutcomeError(
			node,
			itemIndex,
			`${plan.what}: outcome unknown. ${detail}`,
			`${plan.howToCheck} before running it again: running it blindly may do it twice.`,
		);
	const look = async (cause: Error): Promise<IDataObject | undefined> => {
		if (!plan.find) return undefined;
		try {
			return await plan.find();
		} catch (lookError) {
			throw unknown(`No clear answer from the bank (${whyNoAnswer(cause)}) and checking for the result failed too (${whyNoAnswer(lookError)}).`);
		}
	};

	try {
		return await send();
	} catch (first) {
		if (!outcomeUnknown(first)) throw withOutcome(asNodeError(node, first, itemIndex), 'refused');
		const found = await look(first as Error);
		if (found) return found;
		if (!plan.resendIsSafe) {
			throw unknown(`No clear answer from the bank (${whyNoAnswer(first)})${plan.find ? ' and had no record of it when asked; it may still be working on it' : ''}.`);
		}
		try {
			return await send();
		} catch (second) {
			const code = responseCodeOf(second) ?? '';
			const done = outcomeUnknown(second) ? undefined : plan.doneWhenResendRefused?.(code);
			if (done) return done;
			const foundLater = await look(second as Error);
			if (foundLater) return foundLater;
			if (!outcomeUnknown(second) && code !== '26') throw withOutcome(asNodeError(node, second, itemIndex), 'refused');
			throw unknown(`No clear answer to the first request (${whyNoAnswer(first)}) and sending it once more ended with "${whyNoAnswer(second)}".`);
		}
	}
}
