import type { INodeProperties } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as bank from './bank/Bank.resource';
import * as member from './member/Member.resource';
import * as permission from './permission/Permission.resource';
import * as role from './role/Role.resource';
import { API_CLIENT, BOTH, DASHBOARD_USER, selectorsFor } from './selectors';
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
	role: role.operations,
	session: session.operations,
	settlement: settlement.operations,
	token: token.operations,
	transaction: transaction.operations,
	transfer: transfer.operations,
	webhook: webhook.operations,
};

export const resourceSelectors: INodeProperties[] = selectorsFor({ displayName: 'Resource', name: 'resource' }, [
	{ name: 'Account', value: 'account', reachableWith: BOTH },
	{ name: 'Bank', value: 'bank', reachableWith: API_CLIENT },
	{ name: 'Member', value: 'member', reachableWith: DASHBOARD_USER },
	{ name: 'Permission', value: 'permission', reachableWith: DASHBOARD_USER },
	{ name: 'Role', value: 'role', reachableWith: DASHBOARD_USER },
	{ name: 'Session', value: 'session', reachableWith: DASHBOARD_USER },
	{ name: 'Settlement', value: 'settlement', reachableWith: DASHBOARD_USER },
	{ name: 'Token', value: 'token', reachableWith: API_CLIENT },
	{ name: 'Transaction', value: 'transaction', reachableWith: BOTH },
	{ name: 'Transfer', value: 'transfer', reachableWith: BOTH },
	{ name: 'Webhook', value: 'webhook', reachableWith: API_CLIENT },
]);

export const resourceDescriptions: INodeProperties[] = [
	...account.description,
	...bank.description,
	...member.description,
	...permission.description,
	...role.description,
	...session.description,
	...settlement.description,
	...token.description,
	...transaction.description,
	...transfer.description,
	...webhook.description,
];
