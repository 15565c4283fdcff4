import type { INodeProperties } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as bank from './bank/Bank.resource';
import * as member from './member/Member.resource';
import * as permission from './permission/Permission.resource';
import * as reconciliation from './reconciliation/Reconciliation.resource';
import * as role from './role/Role.resource';
import * as session from './session/Session.resource';
import * as settlement from './settlement/Settlement.resource';
import * as token from './token/Token.resource';
import * as transaction from './transaction/Transaction.resource';
import * as transfer from './transfer/Transfer.resource';
import type { ResourceOperations } from './types';
import * as webhook from './webhook/Webhook.resource';

/** resource value → its operations; the router dispatches through this map. */
export const RESOURCES: Record<string, ResourceOperations> = {
	account: account.operations,
	bank: bank.operations,
	member: member.operations,
	permission: permission.operations,
	reconciliation: reconciliation.operations,
	role: role.operations,
	session: session.operations,
	settlement: settlement.operations,
	token: token.operations,
	transaction: transaction.operations,
	transfer: transfer.operations,
	webhook: webhook.operations,
};

/** One Resource selector for both APIs: n8n's node picker lists each resource of every Resource parameter. */
export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'Bank', value: 'bank' },
		{ name: 'Member', value: 'member' },
		{ name: 'Permission', value: 'permission' },
		{ name: 'Reconciliation', value: 'reconciliation' },
		{ name: 'Role', value: 'role' },
		{ name: 'Session', value: 'session' },
		{ name: 'Settlement', value: 'settlement' },
		{ name: 'Token', value: 'token' },
		{ name: 'Transaction', value: 'transaction' },
		{ name: 'Transfer', value: 'transfer' },
		{ name: 'Webhook', value: 'webhook' },
	],
	default: 'account',
};

export const resourceDescriptions: INodeProperties[] = [
	...account.description,
	...bank.description,
	...member.description,
	...permission.description,
	...reconciliation.description,
	...role.description,
	...session.description,
	...settlement.description,
	...token.description,
	...transaction.description,
	...transfer.description,
	...webhook.description,
];
