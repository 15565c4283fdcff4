import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as getAll from './getAll.operation';

export const operations: ResourceOperations = { getAll };

export const description: INodeProperties[] = [
	...operationsFor('permission', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many permissions',
			description: 'The permission codes (such as transfer.initiate) that roles can grant',
			reachableWith: DASHBOARD_USER,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['permission'], operation: ['getAll'] } }, getAll.description),
];
