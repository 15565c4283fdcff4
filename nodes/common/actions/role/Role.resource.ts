import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as create from './create.operation';
import * as deleteRole from './delete.operation';

export const operations: ResourceOperations = { create, delete: deleteRole };

export const description: INodeProperties[] = [
	...operationsFor('role', [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a role',
			description: 'A dashboard role granting chosen permission codes',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a role',
			description: 'Remove a dashboard role that no member holds',
			reachableWith: DASHBOARD_USER,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['role'], operation: ['create'] } }, create.description),
	...updateDisplayOptions({ show: { resource: ['role'], operation: ['delete'] } }, deleteRole.description),
];
