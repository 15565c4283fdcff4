import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { forgetBankLists } from '../../methods/bankList';
import { asNodeError, outcomeUnknown, responseCodeOf } from '../../transport/outcome';
import { bankRequest } from '../../transport/request';
import { toAmountString } from '../../validation';
import { transferByReference } from './transferByReference';
import { refusedError, unknownOutcomeError, whyNoAnswer, withOutcome } from '../writeOutcome';

/** The funds_transfer body (README, "Where the API documentation is silent"), already validated. */
export interface TransferBody extends IDataObject {
	reference_number: string;
	transfer_type: 'intra' | 'inter';
	amount: string;
	source_account_number: string;
	beneficiary_account_number: string;
	bank_code: string;
	narration: string;
}

/**
 * Waits between transaction_status polls: the contract's 5 s, 15 s, 60 s, then every 60 s. Only the first
 * interval is stored; the others are multiples of it. Exported so that tests can make it short.
 */
export const STATUS_POLLING = { firstIntervalMs: 5_000 };
const GROWTH = [1, 3, 12];

const PENDING_ADVICE = (reference: string) =>
	`Do not send it again: keep reference ${reference} and check it later with Transfer → Get Status.`;

const api = (itemIndex: number) => ({ itemIndex, variant: 'api' as const });

/** The fields of the request that a found record carries and that differ from it (amounts compared as decimals). */
export function differingFields(body: TransferBody, found: IDataObject): string[] {
	const expected: Array<[string, string | undefined]> = [
		['amount', body.amount],
		['transfer_type', body.transfer_type],
		['source_account_number', body.source_account_number],
		['beneficiary_account_number', body.beneficiary_account_number],
		['bank_code', body.bank_code],
		['narration', body.narration],
		['remarks', body.narration],
	];
	return expected
		.filter(([field]) => found[field] !== undefined && found[field] !== null)
		.filter(([field, value]) => {
			const held = field === 'amount' ? toAmountString(found.amount).amount : String(found[field]).trim();
			return held !== value?.trim();
		})
		.map(([field]) => field);
}

const checkAdvice = (reference: string) =>
	`Keep reference ${reference}: check it with Transfer → Get Status in a few minutes before doing anything else. If the bank still has no record of it, send it again with the same reference ${reference}: the bank refuses a reference it has seen, so it cannot be paid twice. Never send this payment again under a new reference: that could pay it twice.`;

/**
 * After an unanswered send: did the bank record this transfer? The record when it did, undefined when it
 * answers 06. A status that cannot be read leaves the outcome unknown; a record under this reference that
 * differs from this transfer in any field the request set proves this transfer was not made (a reference
 * holds one transfer, so the bank refuses this one with 26).
 */
async function recorded(context: IExecuteFunctions, body: TransferBody, cause: Error, itemIndex: number) {
	const reference = body.reference_number;
	const situation = responseCodeOf(cause) === '26' ? 'The bank has seen this reference before (26)' : `The bank did not answer (${whyNoAnswer(cause)})`;
	let found: IDataObject | undefined;
	try {
		found = await transferByReference(context, reference, itemIndex);
	} catch (statusError) {
		throw unknownOutcomeError(
			context.getNode(),
			itemIndex,
			`Transfer ${reference}: outcome unknown. ${situation} and its status could not be read (${whyNoAnswer(statusError)})`,
			checkAdvice(reference),
		);
	}
	if (found === undefined) return undefined;
	const differing = differingFields(body, found);
	if (differing.length > 0) {
		const held = differing.map((field) => `${field} ${String(found[field])}`).join(', ');
		throw refusedError(
			context.getNode(),
			itemIndex,
			`Reference ${reference} already belongs to another transfer (${held}); this transfer of ${body.amount} to ${body.beneficiary_account_number} was not made`,
			`The bank keeps one transfer per reference and refuses a reference it has seen. Check that other transfer with Transfer → Get Status; if this payment is still due, send it with a new reference.`,
		);
	}
	return found;
}

/** Refusals that turn down the request's content, so they apply to an earlier unanswered send of the same body as well. */
const CONTENT_REFUSALS = new Set(['44', '45', '57', '60', '83', '99']);

/**
 * Sends funds_transfer so that money moves at most once. When the send fails without the bank deciding
 * (timeout, dropped connection, 5xx, no envelope), transaction_status for the reference decides: found → that
 * record is returned, nothing is re-sent; 06 → sent once more. A bank decision (51, 57 …) is returned as an
 * error and never re-sent. A 26 (on any send) is answered by the transfer that holds the reference when every
 * field matches: the same payment run again, or a first send that landed late.
 * "Not made" is said only when the bank decided so; every other end is outcome unknown.
 * `sentBefore` says the record is that of an earlier run (the bank answered 26 to this one's first send).
 */
export async function sendExactlyOnce(context: IExecuteFunctions, body: TransferBody, itemIndex: number): Promise<{ record: IDataObject; sentBefore: boolean }> {
	const send = async () => await bankRequest<IDataObject>(context, 'fundsTransfer', body, api(itemIndex));
	const reference = body.reference_number;
	const ofThisRun = (record: IDataObject) => ({ record, sentBefore: false });
	try {
		return ofThisRun(await send());
	} catch (first) {
		if (responseCodeOf(first) === '26') {
			// Run again (a sheet re-run, a retried tool call, or after an unknown outcome): the transfer under this
			// reference, when it is this one, is the answer; reporting "refused" would invite paying it again under a
			// new reference.
			const earlier = await recorded(context, body, first as Error, itemIndex);
			if (earlier) return { record: earlier, sentBefore: true };
		}
		if (!outcomeUnknown(first)) {
			if (responseCodeOf(first) === '99' && /bank.?code/i.test(whyNoAnswer(first))) forgetBankLists();
			throw withOutcome(asNodeError(context.getNode(), first, itemIndex), 'refused');
		}
		const landed = await recorded(context, body, first as Error, itemIndex);
		if (landed) return ofThisRun(landed);
		try {
			return ofThisRun(await send());
		} catch (second) {
			const code = responseCodeOf(second) ?? '';
			if (!outcomeUnknown(second) && CONTENT_REFUSALS.has(code)) {
				throw withOutcome(asNodeError(context.getNode(), second, itemIndex), 'refused');
			}
			const found = await recorded(context, body, second as Error, itemIndex);
			if (found) return ofThisRun(found);
			throw unknownOutcomeError(
				context.getNode(),
				itemIndex,
				`Transfer ${reference}: outcome unknown. The first send got no answer (${whyNoAnswer(first)}), the second ended with "${whyNoAnswer(second)}", and the bank had no record of it when asked; it may still be working on it`,
				checkAdvice(reference),
			);
		}
	}
}

/** Polls transaction_status with growing intervals until the transfer is no longer pending or maxWaitMs has passed. */
export async function waitForFinalStatus(
	context: IExecuteFunctions,
	record: IDataObject,
	maxWaitMs: number,
	itemIndex: number,
): Promise<IDataObject> {
	const reference = String(record.reference_number);
	const deadline = Date.now() + maxWaitMs;
	let current = record;
	for (let step = 0; current.status === 'pending'; step++) {
		const remaining = deadline - Date.now();
		if (remaining <= 0 || context.getExecutionCancelSignal?.()?.aborted) break;
		await sleep(Math.min(STATUS_POLLING.firstIntervalMs * GROWTH[Math.min(step, GROWTH.length - 1)], remaining));
		try {
			current = (await transferByReference(context, reference, itemIndex)) ?? current;
		} catch (error) {
			// The bank accepted it: the last status it gave (pending) is what the node knows.
			throw withOutcome(
				new NodeOperationError(
					context.getNode(),
					`Transfer ${reference} was accepted (pending), but reading its status failed: ${(error as Error).message}. ${PENDING_ADVICE(reference)}`,
					{ itemIndex, description: PENDING_ADVICE(reference) },
				),
				'pending',
			);
		}
	}
	return current;
}
