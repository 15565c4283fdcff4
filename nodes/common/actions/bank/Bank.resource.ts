import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { API_CLIENT, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as getAll from './getAll.operation';

export const operations: ResourceOperations = { getAll };

export const description: INodeProperties[] = [
	...operationsFor('bank', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many banks',
			description: 'Banks you can send money to, with the code to use as bank code',
			reachableWith: API_CLIENT,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['bank'], operation: ['getAll'] } }, getAll.description),
];
