import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as verify from './verify.operation';

export const operations: ResourceOperations = { verify };

export const description: INodeProperties[] = [
	...operationsFor('session', [
		{
			name: 'Verify',
			value: 'verify',
			action: 'Verify a dashboard session',
			description: 'Check that a dashboard session token is valid, and see its user, role and expiry',
			reachableWith: DASHBOARD_USER,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['session'], operation: ['verify'] } }, verify.description),
];
