import type { INodeProperties } from 'n8n-workflow';

import { description as createWebhook } from '../../nodes/common/actions/webhook/create.operation';
import * as lists from '../../nodes/common/optionLists';
import * as validation from '../../nodes/common/validation';
import { BaasTrigger } from '../../nodes/BaasTrigger/BaasTrigger.node';

/** Each fixed list feeds the form's options and the check before a request: both from one constant. */
const checked: Array<[string, readonly { value: string }[], { safeParse(value: unknown): { success: boolean } }]> = [
	['account types', lists.ACCOUNT_TYPES, validation.accountTypeFilterSchema],
	['account statuses', lists.ACCOUNT_STATUSES, validation.accountStatusSchema],
	['account status changes', lists.ACCOUNT_STATUS_CHANGES, validation.accountStatusChangeSchema],
	['transaction types', lists.TRANSACTION_TYPES, validation.transactionTypeSchema],
	['transaction statuses', lists.TRANSACTION_STATUSES, validation.transactionStatusSchema],
	['transfer types', lists.TRANSFER_TYPES, validation.transferTypeSchema],
	['member sort fields', lists.MEMBER_SORT_FIELDS, validation.memberSortFieldSchema],
	['sort orders', lists.SORT_ORDERS, validation.sortOrderSchema],
];

test.each(checked)('%s: every option passes its check, nothing else does', (_name, list, schema) => {
	for (const option of list) expect(schema.safeParse(option.value).success).toBe(true);
	expect(schema.safeParse('not-an-option').success).toBe(false);
});

test.each(Object.entries(lists).filter(([, value]) => Array.isArray(value)))('%s is in alphabetical order by name', (_name, list) => {
	const names = (list as unknown as Array<{ name: string }>).map((option) => option.name);
	expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
});

test('Webhook → Create and the BaaS Trigger offer the same event kinds', () => {
	const values = (properties: INodeProperties[]) => properties.find((p) => p.name === 'events')!.options!.map((o) => (o as { value: string }).value);
	const kinds = lists.WEBHOOK_EVENTS.map((event) => event.value);
	expect(values(createWebhook)).toEqual(kinds);
	expect(values(new BaasTrigger().description.properties)).toEqual(kinds);
});
