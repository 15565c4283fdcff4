import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankRequest } from '../../transport/request';
import { emailSchema, personNameSchema, uuidSchema, validField } from '../../validation';
import { writeOptions } from '../commonFields';
import { roleIdField } from '../role/roleIdField';
import { writeOnce } from '../lostAnswer';

export const changesState = true;

export const description: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'Address the invitation is sent to',
	},
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		required: true,
		default: '',
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		required: true,
		default: '',
	},
	roleIdField('The role the new member gets (a UUID; see Role → Create, or a member\'s user_role_id)'),
	writeOptions(),
];

/** Invites a person to the dashboard: the bank e-mails them a link to set a password. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const email = validField(this, itemIndex, 'Email', emailSchema, this.getNodeParameter('email', itemIndex));
	const body = {
		email,
		first_name: validField(this, itemIndex, 'First Name', personNameSchema, this.getNodeParameter('firstName', itemIndex)),
		last_name: validField(this, itemIndex, 'Last Name', personNameSchema, this.getNodeParameter('lastName', itemIndex)),
		role_id: validField(this, itemIndex, 'Role ID', uuidSchema, this.getNodeParameter('roleId', itemIndex)),
	};
	const options = { itemIndex, variant: 'web' as const };
	// The bank answers with an empty object; say what happened instead. It refuses an e-mail it knows (26), so a re-send cannot invite twice.
	return await writeOnce(this, itemIndex, async () => (await bankRequest(this, 'addMember', body, options), { invited: true, email }), {
		what: `Invitation of ${email}`,
		howToCheck: `Look for ${email} with Member → Get Many (Filters → Search: ${email})`,
		find: async () => {
			const members = await bankRequest<IDataObject[]>(this, 'fetchMembers', { filters: { search: email }, page: 1, page_size: 100 }, options);
			const member = members.find((m) => String(m.email).toLowerCase() === email.toLowerCase());
			return member ? { invited: true, email, id: member.id } : undefined;
		},
		resendIsSafe: true,
	});
}
