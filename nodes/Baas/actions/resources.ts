import type { INodeProperties } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as bank from './bank/Bank.resource';
import { API_CLIENT, BOTH, selectorsFor } from './selectors';
import * as token from './token/Token.resource';
import type { ResourceOperations } from './types';

/** resource value → its operations; the router dispatches through this map. */
export const RESOURCES: Record<string, ResourceOperations> = {
	account: account.operations,
	bank: bank.operations,
	token: token.operations,
};

export const resourceSelectors: INodeProperties[] = selectorsFor({ displayName: 'Resource', name: 'resource' }, [
	{ name: 'Account', value: 'account', reachableWith: BOTH },
	{ name: 'Bank', value: 'bank', reachableWith: API_CLIENT },
	{ name: 'Token', value: 'token', reachableWith: API_CLIENT },
]);

export const resourceDescriptions: INodeProperties[] = [
	...account.description,
	...bank.description,
	...token.description,
];
