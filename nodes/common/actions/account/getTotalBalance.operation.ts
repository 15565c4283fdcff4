import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { readOptions } from '../commonFields';

export const description: INodeProperties[] = [readOptions()];

/** One record `{ total_balance }`: the sum of the balances of all active accounts, as a decimal string. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await bankRequest<IDataObject>(this, 'getTotalBalance', {}, { itemIndex });
}
