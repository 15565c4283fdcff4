import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BOTH, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as getAll from './getAll.operation';

export const operations: ResourceOperations = { getAll };

export const description: INodeProperties[] = [
	...operationsFor('transaction', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many transactions',
			description:
				'Transaction history (money in and out), newest first, filtered by account, dates, type, status, category, reference, channel or text',
			reachableWith: BOTH,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['transaction'], operation: ['getAll'] } }, getAll.description),
];
