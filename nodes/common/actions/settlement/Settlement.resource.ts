import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as getAll from './getAll.operation';

export const operations: ResourceOperations = { getAll };

export const description: INodeProperties[] = [
	...operationsFor('settlement', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many settlements',
			description:
				'Settlements: inbound credits that have cleared and been applied to a balance, newest first, filtered by account, dates, reference or status',
			reachableWith: DASHBOARD_USER,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['settlement'], operation: ['getAll'] } }, getAll.description),
];
