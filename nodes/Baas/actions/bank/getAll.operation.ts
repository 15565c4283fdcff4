import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { listScopeFields } from '../commonFields';

export const description: INodeProperties[] = [...listScopeFields];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const banks = await bankRequest<IDataObject[]>(this, 'fetchBanks', {}, { itemIndex, variant: 'api' });
	if (this.getNodeParameter('returnAll', itemIndex) as boolean) return banks;
	return banks.slice(0, this.getNodeParameter('limit', itemIndex) as number);
}
