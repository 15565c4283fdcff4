import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { uuidSchema, validField } from '../../validation';
import { optionsCollection } from '../commonFields';

export const changesState = true;

export const description: INodeProperties[] = [
	{
		displayName: 'Role ID',
		name: 'roleId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b',
		description: 'The role to delete (a UUID). The bank refuses while any member holds it, and for your own role.',
	},
	optionsCollection(1),
];

/** Deletes a dashboard role that no member holds. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const roleId = validField(this, itemIndex, 'Role ID', uuidSchema, this.getNodeParameter('roleId', itemIndex));
	// The bank answers with an empty object; say what happened instead.
	await bankRequest(this, 'deleteRole', { role_id: roleId }, { itemIndex, variant: 'web' });
	return { deleted: true, role_id: roleId };
}
