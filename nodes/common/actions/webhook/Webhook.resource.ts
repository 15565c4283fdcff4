import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { API_CLIENT, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as create from './create.operation';

export const operations: ResourceOperations = { create };

export const description: INodeProperties[] = [
	...operationsFor('webhook', [
		{
			name: 'Create',
			value: 'create',
			action: 'Register a webhook URL',
			description: 'Tell the bank where to send signed events about collections and transfer outcomes',
			reachableWith: API_CLIENT,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['webhook'], operation: ['create'] } }, create.description),
];
