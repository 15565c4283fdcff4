import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { API_CLIENT, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as validate from './validate.operation';

export const operations: ResourceOperations = { validate };

export const description: INodeProperties[] = [
	...operationsFor('token', [
		{
			name: 'Validate',
			value: 'validate',
			action: 'Validate the access token',
			description: 'Check that the bank accepts the API client token, and see its permissions and expiry',
			reachableWith: API_CLIENT,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['token'], operation: ['validate'] } }, validate.description),
];
