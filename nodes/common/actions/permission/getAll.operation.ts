import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { listScopeFields, readOptions } from '../commonFields';
import { readListScope } from '../listInputs';

export const description: INodeProperties[] = [...listScopeFields, readOptions()];

/** The permission codes a role can grant (code, name, description), one item per permission. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scope = readListScope(this, itemIndex);
	const permissions = await bankRequest<IDataObject[]>(this, 'fetchPermissions', {}, { itemIndex, variant: 'web' });
	const list = Array.isArray(permissions) ? permissions : [];
	return scope.returnAll ? list : list.slice(0, scope.limit);
}
