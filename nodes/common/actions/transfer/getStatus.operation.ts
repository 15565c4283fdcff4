import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankApiError } from '../../transport/errors';
import { referenceSchema, validField } from '../../validation';
import { readOptions } from '../commonFields';
import { referenceNumberField, referenceText } from './fields';
import { transferByReference } from './transferByReference';

export const description: INodeProperties[] = [
	referenceNumberField(
		'The reference you gave when creating the transfer (not the bank\'s transaction ID). By default it is read from the item\'s reference_number field.',
	),
	readOptions(),
];

/** The current status of a transfer (pending, successful or failed) by your own reference. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const reference = validField(
		this,
		itemIndex,
		'Reference Number',
		referenceSchema,
		referenceText(this.getNodeParameter('referenceNumber', itemIndex)),
	);
	const record = await transferByReference(this, reference, itemIndex);
	if (record) return record;
	throw bankApiError(
		this.getNode(),
		{ responseCode: '06', message: `No transfer has the reference number "${reference}"` },
		itemIndex,
	);
}
