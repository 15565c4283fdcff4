import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { uuidSchema, validField } from '../../validation';
import { writeOptions } from '../commonFields';
import { roleIdField } from './roleIdField';
import { writeOnce } from '../lostAnswer';

export const changesState = true;

export const description: INodeProperties[] = [
	roleIdField('The role to delete (a UUID). The bank refuses while any member holds it, and for your own role.'),
	writeOptions(),
];

/** Deletes a dashboard role that no member holds. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const roleId = validField(this, itemIndex, 'Role ID', uuidSchema, this.getNodeParameter('roleId', itemIndex));
	const deleted = { deleted: true, role_id: roleId };
	// The bank answers with an empty object; say what happened instead. Deleting twice cannot do harm: a role already gone is 25.
	return await writeOnce(this, itemIndex, async () => (await bankRequest(this, 'deleteRole', { role_id: roleId }, { itemIndex, variant: 'web' }), deleted), {
		what: `Deletion of role ${roleId}`,
		howToCheck: `Look for role ${roleId} in the bank dashboard (Settings → Roles)`,
		resendIsSafe: true,
		doneWhenResendRefused: (code) => (code === '25' ? deleted : undefined),
	});
}
