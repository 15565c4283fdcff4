import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { uuidSchema, validField } from '../../validation';
import { readOptions } from '../commonFields';

export const description: INodeProperties[] = [
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '3f2b6c1e-8d4a-4b7e-9c1f-2a5d6e7f8a9b',
		description: 'The member\'s ID (a UUID, the ID field of Member → Get Many)',
	},
	readOptions(),
];

/** One team member by ID: e-mail, names, role, whether active, last login. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const userId = validField(this, itemIndex, 'User ID', uuidSchema, this.getNodeParameter('userId', itemIndex));
	return await bankRequest<IDataObject>(this, 'getMemberDetail', { user_id: userId }, { itemIndex, variant: 'web' });
}
