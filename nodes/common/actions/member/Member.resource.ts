import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as invite from './invite.operation';

export const operations: ResourceOperations = { get, getAll, invite };

export const description: INodeProperties[] = [
	...operationsFor('member', [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a team member',
			description: 'One dashboard team member by ID',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many team members',
			description: 'Dashboard team members, with filters by join date, activity, role and text',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Invite',
			value: 'invite',
			action: 'Invite a team member',
			description: 'Add a person to the dashboard team with a role; the bank e-mails them an invitation',
			reachableWith: DASHBOARD_USER,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['member'], operation: ['get'] } }, get.description),
	...updateDisplayOptions({ show: { resource: ['member'], operation: ['getAll'] } }, getAll.description),
	...updateDisplayOptions({ show: { resource: ['member'], operation: ['invite'] } }, invite.description),
];
