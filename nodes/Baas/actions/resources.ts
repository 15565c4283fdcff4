import type { INodeProperties } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as bank from './bank/Bank.resource';
import { API_CLIENT, BOTH, DASHBOARD_USER, selectorsFor } from './selectors';
import * as settlement from './settlement/Settlement.resource';
import * as token from './token/Token.resource';
import * as transaction from './transaction/Transaction.resource';
import type { ResourceOperations } from './types';

/** resource value → its operations; the router dispatches through this map. */
export const RESOURCES: Record<string, ResourceOperations> = {
	account: account.operations,
	bank: bank.operations,
	settlement: settlement.operations,
	token: token.operations,
	transaction: transaction.operations,
};

export const resourceSelectors: INodeProperties[] = selectorsFor({ displayName: 'Resource', name: 'resource' }, [
	{ name: 'Account', value: 'account', reachableWith: BOTH },
	{ name: 'Bank', value: 'bank', reachableWith: API_CLIENT },
	{ name: 'Settlement', value: 'settlement', reachableWith: DASHBOARD_USER },
	{ name: 'Token', value: 'token', reachableWith: API_CLIENT },
	{ name: 'Transaction', value: 'transaction', reachableWith: BOTH },
]);

export const resourceDescriptions: INodeProperties[] = [
	...account.description,
	...bank.description,
	...settlement.description,
	...token.description,
	...transaction.description,
];
