import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequestEnvelope } from '../../transport/request';

export const description: INodeProperties[] = [];

/** Confirms the credential's cached token is accepted; returns its metadata (never the token itself). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const envelope = await bankRequestEnvelope<IDataObject>(this, 'validateToken', undefined, { itemIndex, variant: 'api' });
	return { valid: true, message: envelope.message, ...envelope.data };
}
