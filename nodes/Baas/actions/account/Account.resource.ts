import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BOTH, selectorsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as getBalance from './getBalance.operation';

export const operations: ResourceOperations = { getBalance };

export const description: INodeProperties[] = [
	...selectorsFor({ displayName: 'Operation', name: 'operation', displayOptions: { show: { resource: ['account'] } } }, [
		{
			name: 'Get Balance',
			value: 'getBalance',
			action: 'Get the balance of an account',
			description: 'Current balance and status of one of your accounts',
			reachableWith: BOTH,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['account'], operation: ['getBalance'] } }, getBalance.description),
];
