import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError, responseCodeOf } from '../../transport/outcome';
import { bankRequest } from '../../transport/request';

/**
 * The bank's transfer record for one of your references (transaction_status). Used by Transfer → Get Status,
 * by the exactly-once check after an unanswered send, and by Wait for Final Status (exactlyOnce.ts): the record,
 * or undefined when the bank answers 06 (no transfer has that reference).
 */
export async function transferByReference(context: IExecuteFunctions, reference: string, itemIndex: number): Promise<IDataObject | undefined> {
	try {
		return await bankRequest<IDataObject>(context, 'transactionStatus', { reference_number: reference }, { itemIndex, variant: 'api' });
	} catch (error) {
		if (responseCodeOf(error) === '06') return undefined;
		throw asNodeError(context.getNode(), error, itemIndex);
	}
}
