import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { listScopeFields } from '../commonFields';
import { readListScope } from '../listInputs';

export const description: INodeProperties[] = [...listScopeFields];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scope = readListScope(this, itemIndex);
	const banks = await bankRequest<IDataObject[]>(this, 'fetchBanks', {}, { itemIndex, variant: 'api' });
	return scope.returnAll ? banks : banks.slice(0, scope.limit);
}
