import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { API_CLIENT, DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as create from './create.operation';
import * as getStatus from './getStatus.operation';
import * as nameEnquiry from './nameEnquiry.operation';

export const operations: ResourceOperations = { create, getStatus, nameEnquiry };

export const description: INodeProperties[] = [
	...operationsFor('transfer', [
		{
			name: 'Create',
			value: 'create',
			action: 'Send money',
			description:
				'Send money from one of your accounts to a beneficiary, intra- or inter-bank. Each transfer needs your own unique reference; keep the same reference when retrying, so a payment is never made twice.',
			reachableWith: API_CLIENT,
		},
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get the status of a transfer',
			description: 'Whether a transfer is pending, successful or failed, by the reference you gave it',
			reachableWith: API_CLIENT,
		},
		{
			name: 'Name Enquiry',
			value: 'nameEnquiry',
			action: 'Look up the name on an account',
			description:
				'The account name behind an account number at a bank, to check a beneficiary before paying; can fail the item when the name differs from the expected one',
			reachableWith: DASHBOARD_USER,
		},
	]),
	...updateDisplayOptions({ show: { resource: ['transfer'], operation: ['create'] } }, create.description),
	...updateDisplayOptions({ show: { resource: ['transfer'], operation: ['getStatus'] } }, getStatus.description),
	...updateDisplayOptions({ show: { resource: ['transfer'], operation: ['nameEnquiry'] } }, nameEnquiry.description),
];
