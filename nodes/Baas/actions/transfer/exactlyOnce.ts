import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { forgetBankLists } from '../../methods/bankList';
import { asNodeError, outcomeUnknown, responseCodeOf } from '../../transport/outcome';
import { bankRequest } from '../../transport/request';
import { toAmountString } from '../../validation';
import { transferByReference } from './transferByReference';

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

const api = (itemIndex: number) => ({ itemIndex, variant: 'api' as const });

/** After an unanswered send: did the bank record this transfer? A record for the reference that is not this transfer is an error. */
async function recorded(context: IExecuteFunctions, body: TransferBody, cause: Error, itemIndex: number) {
	const reference = body.reference_number;
	let found: IDataObject | undefined;
	try {
		found = await transferByReference(context, reference, itemIndex);
	} catch (statusError) {
		throw new NodeOperationError(
			context.getNode(),
			`Transfer ${reference} may or may not have been made: the bank did not answer (${cause.message}) and its status could not be read (${(statusError as Error).message})`,
			{ itemIndex, description: `Check with Transfer → Get Status before running it again, and keep the reference ${reference} so it cannot be paid twice.` },
		);
	}
	if (found === undefined) return undefined;
	const sameAmount = toAmountString(found.amount).amount === body.amount;
	if (!sameAmount || found.transfer_type !== body.transfer_type) {
		throw new NodeOperationError(
			context.getNode(),
			`Reference ${reference} already belongs to another transfer (${String(found.transfer_type)}, amount ${String(found.amount)}); this transfer of ${body.amount} was not made`,
			{ itemIndex, description: 'Use a new reference for a new payment.' },
		);
	}
	return found;
}

/**
 * Sends funds_transfer so that money moves at most once. When the send fails without the bank deciding
 * (timeout, dropped connection, 5xx, no envelope), transaction_status for the reference decides: found → that
 * record is returned, nothing is re-sent; 06 → sent once more. A bank decision (26, 51, 57 …) is returned as
 * an error and never re-sent. A 26 on the second send means the first one landed late: its record is returned.
 */
export async function sendExactlyOnce(context: IExecuteFunctions, body: TransferBody, itemIndex: number): Promise<IDataObject> {
	const send = async () => await bankRequest<IDataObject>(context, 'fundsTransfer', body, api(itemIndex));
	try {
		return await send();
	} catch (first) {
		if (!outcomeUnknown(first)) {
			if (responseCodeOf(first) === '99' && /bank.?code/i.test((first as Error).message)) forgetBankLists();
			throw asNodeError(context.getNode(), first, itemIndex);
		}
		const landed = await recorded(context, body, first as Error, itemIndex);
		if (landed) return landed;
		try {
			return await send();
		} catch (second) {
			const lateLanding = responseCodeOf(second) === '26' || outcomeUnknown(second);
			if (!lateLanding) throw asNodeError(context.getNode(), second, itemIndex);
			const found = await recorded(context, body, second as Error, itemIndex);
			if (found) return found;
			if (!outcomeUnknown(second)) throw asNodeError(context.getNode(), second, itemIndex);
			throw new NodeOperationError(
				context.getNode(),
				`Transfer ${body.reference_number} was not made: the bank did not answer twice (${(second as Error).message}) and holds no record of it`,
				{ itemIndex, description: `Run it again later with the same reference ${body.reference_number}: the bank refuses a reference twice, so it cannot be paid twice.` },
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
			throw new NodeOperationError(
				context.getNode(),
				`Transfer ${reference} was accepted (pending), but reading its status failed: ${(error as Error).message}`,
				{ itemIndex, description: 'Do not send it again: check it later with Transfer → Get Status.' },
			);
		}
	}
	return current;
}
