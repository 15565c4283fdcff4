/** The current status of one record the trigger saw pending. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { bankRequest } from '../common/transport/request';
import type { ApiVariant } from '../common/transport/routes';
import { asNodeError, responseCodeOf } from '../common/transport/outcome';
import type { Outcome, Stream } from './events';
import { outcomeOf } from './events';

export interface StatusAnswer {
	outcome: Outcome;
	/** The record to emit: a Transfer status record (API client) or the transaction itself. */
	record?: IDataObject;
}

/**
 * Transfers through the API client: transaction_status, the contract's fallback for a missed notification,
 * whose Transfer status record is what the bank's TRANSFER_* webhooks carry. Otherwise (collections, or the
 * dashboard API, which has no transaction_status) the list filtered by that reference.
 */
export async function currentStatus(
	request: typeof bankRequest,
	context: IPollFunctions,
	stream: Stream,
	reference: string,
	variant: ApiVariant,
	timeoutMs?: number,
): Promise<StatusAnswer> {
	if (stream.name === 'transfers' && variant === 'api') {
		try {
			const record = await request<IDataObject>(context, 'transactionStatus', { reference_number: reference }, { variant, attempts: 1, timeoutMs });
			return { outcome: outcomeOf(record?.status), record };
		} catch (error) {
			// 06: the bank has no transfer under this reference (yet); ask again later rather than guess.
			if (responseCodeOf(error) === '06') return { outcome: 'pending' };
			throw asNodeError(context.getNode(), error);
		}
	}
	const found = await request<IDataObject[]>(
		context,
		'fetchTransactions',
		{ filters: { ...stream.filters, reference_number: reference }, page: 1, page_size: 1, limit: 1 },
		{ variant, attempts: 1, timeoutMs },
	);
	const record = Array.isArray(found) ? found[0] : undefined;
	return record ? { outcome: outcomeOf(record.status), record } : { outcome: 'pending' };
}
