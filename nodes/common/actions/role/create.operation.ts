import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { permissionCodesSchema, roleNameSchema, textSchema, validField } from '../../validation';
import { additionalFieldsCollection, writeOptions } from '../commonFields';
import { writeOnce } from '../lostAnswer';

export const changesState = true;

const descriptionSchema = textSchema(1000);

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Payout Initiator',
		description: 'Name of the role (at most 255 characters)',
	},
	{
		displayName: 'Permission Codes',
		name: 'permissionCodes',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'account.view, transfer.initiate',
		description:
			'Permissions the role grants: codes from Permission → Get Many, separated by commas (an expression may also give a list)',
	},
	additionalFieldsCollection([
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'What the role is for',
		},
	]),
	writeOptions(),
];

/** Creates a dashboard role granting the given permission codes. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body: IDataObject = {
		name: validField(this, itemIndex, 'Name', roleNameSchema, this.getNodeParameter('name', itemIndex)),
		permission_codes: validField(this, itemIndex, 'Permission Codes', permissionCodesSchema, this.getNodeParameter('permissionCodes', itemIndex)),
	};
	const text = this.getNodeParameter('additionalFields.description', itemIndex, '') as string;
	if (text) body.description = validField(this, itemIndex, 'Description', descriptionSchema, text);
	// No operation lists roles, but the bank refuses a name it knows (26): one re-send cannot make a second role.
	return await writeOnce(this, itemIndex, async () => await bankRequest<IDataObject>(this, 'createRole', body, { itemIndex, variant: 'web' }), {
		what: `Role "${String(body.name)}"`,
		howToCheck: `Look for the role "${String(body.name)}" in the bank dashboard (Settings → Roles), or for its id in the user_role_id of Member → Get Many`,
		resendIsSafe: true,
	});
}
