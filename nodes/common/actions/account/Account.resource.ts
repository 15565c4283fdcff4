import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { API_CLIENT, BOTH, DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as create from './create.operation';
import * as getAll from './getAll.operation';
import * as getBalance from './getBalance.operation';
import * as getCollections from './getCollections.operation';
import * as getMetrics from './getMetrics.operation';
import * as getSummaries from './getSummaries.operation';
import * as getTotalBalance from './getTotalBalance.operation';
import * as updateStatus from './updateStatus.operation';

export const operations: ResourceOperations = {
	create,
	getAll,
	getBalance,
	getCollections,
	getMetrics,
	getSummaries,
	getTotalBalance,
	updateStatus,
};

const show = (operation: string) => ({ show: { resource: ['account'], operation: [operation] } });

export const description: INodeProperties[] = [
	...operationsFor('account', [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a customer account',
			description:
				'Open a permanent virtual account for a customer, verified by BVN or NIN; returns the new account number',
			reachableWith: API_CLIENT,
		},
		{
			name: 'Get Balance',
			value: 'getBalance',
			action: 'Get the balance of an account',
			description: 'Current balance (decimal string, NGN) and status of one of your accounts',
			reachableWith: BOTH,
		},
		{
			name: 'Get Collections',
			value: 'getCollections',
			action: 'Get collection totals per account',
			description:
				'Per account: how many inbound payments it received and their total amount, optionally within a date range',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many accounts',
			description: 'List your accounts (including customer virtual accounts) with balance and status, one item per account',
			reachableWith: BOTH,
		},
		{
			name: 'Get Metrics',
			value: 'getMetrics',
			action: 'Get account metrics',
			description:
				'One record of business-wide figures: active, inactive and virtual account counts, volume collected and combined balance',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Get Summaries',
			value: 'getSummaries',
			action: 'Get account summaries',
			description:
				'Per account: balance plus lifetime totals of collections and transfers (counts and amounts) and last transaction date',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Get Total Balance',
			value: 'getTotalBalance',
			action: 'Get the total balance',
			description: 'The sum of the balances of all your active accounts, as one record',
			reachableWith: DASHBOARD_USER,
		},
		{
			name: 'Update Status',
			value: 'updateStatus',
			action: 'Update the status of an account',
			description:
				'Set an account active (can send and receive funds) or inactive (cannot); blocked or closed accounts cannot be changed',
			reachableWith: DASHBOARD_USER,
		},
	], 'getBalance'),
	...updateDisplayOptions(show('create'), create.description),
	...updateDisplayOptions(show('getAll'), getAll.description),
	...updateDisplayOptions(show('getBalance'), getBalance.description),
	...updateDisplayOptions(show('getCollections'), getCollections.description),
	...updateDisplayOptions(show('getMetrics'), getMetrics.description),
	...updateDisplayOptions(show('getSummaries'), getSummaries.description),
	...updateDisplayOptions(show('getTotalBalance'), getTotalBalance.description),
	...updateDisplayOptions(show('updateStatus'), updateStatus.description),
];
