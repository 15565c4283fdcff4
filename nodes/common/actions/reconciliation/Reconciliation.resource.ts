import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BOTH, DASHBOARD_USER, operationsFor } from '../selectors';
import type { ResourceOperations } from '../types';
import * as checkSettlements from './checkSettlements.operation';
import * as getStatement from './getStatement.operation';
import * as matchPayments from './matchPayments.operation';

export const operations: ResourceOperations = { checkSettlements, getStatement, matchPayments };

export const description: INodeProperties[] = [
	...operationsFor(
		'reconciliation',
		[
			{
				name: 'Check Settlements',
				value: 'checkSettlements',
				action: 'Check settlements against collections',
				description:
					"A day's successful collections against their settlements: settled, not settled yet, settled with another amount, settled twice, settlement without a collection; totals per account and for the day",
				reachableWith: DASHBOARD_USER,
			},
			{
				name: 'Get Statement',
				value: 'getStatement',
				action: 'Get a statement',
				description: 'Every transaction of an account (or all) between two dates, every page, as a CSV file with the totals in and out, or as items',
				reachableWith: BOTH,
			},
			{
				name: 'Match Expected Payments',
				value: 'matchPayments',
				action: 'Match expected payments against collections',
				description:
					"The input items (expected payments) against the period's collections: matched, underpaid, overpaid, paid in parts, paid twice, not paid yet, pending, failed, and unexpected payments",
				reachableWith: BOTH,
			},
		],
		'matchPayments',
	),
	...updateDisplayOptions({ show: { resource: ['reconciliation'], operation: ['checkSettlements'] } }, checkSettlements.description),
	...updateDisplayOptions({ show: { resource: ['reconciliation'], operation: ['getStatement'] } }, getStatement.description),
	...updateDisplayOptions({ show: { resource: ['reconciliation'], operation: ['matchPayments'] } }, matchPayments.description),
];
