/** Transaction and settlement history (page- and cursor-capable). */
import { z } from 'zod';
import { ApiError } from '../http/envelope';
import * as present from '../http/present';
import { businessOf, route, V1, type RouteContext, type RouteDef } from '../http/routeDefinition';
import { dateWindow, inWindow } from '../state/filters';
import { newestFirst, newestFirstPage, pageOrCursor } from '../state/listing';
import type { Transaction } from '../state/records';
import { accountNumber, checkCursor, dateRangeShape, pagingShape, rangeFilters, txStatus } from '../http/requestValidation';

const freeText = z.string().max(255, { message: 'must be at most 255 characters' });

const transactionsSchema = z
	.object({
		filters: rangeFilters({
			account_number: accountNumber.nullish(),
			...dateRangeShape,
			transaction_type: z.enum(['credit', 'debit']).nullish(),
			status: txStatus.nullish(),
			transaction_category: freeText.nullish(),
			reference_number: freeText.nullish(),
			channel: freeText.nullish(),
			search: freeText.nullish(),
		}),
		...pagingShape,
	})
	.strict()
	.superRefine(checkCursor);

type TxBody = z.infer<typeof transactionsSchema>;

/** The page of transactions the body asks for (filters, then page or cursor), newest first. */
function matchingTransactions(ctx: RouteContext<TxBody>): Transaction[] {
	const businessId = businessOf(ctx).id;
	const f = ctx.body.filters ?? {};
	const window = dateWindow(f);
	const needle = f.search ? f.search.toLowerCase() : '';
	return newestFirstPage(
		ctx.rt.bank.transactions,
		(t) =>
			t.businessId === businessId &&
			inWindow(t.createdAtMs, window) &&
			(!f.account_number || t.accountNumber === f.account_number) &&
			(!f.transaction_type || t.type === f.transaction_type) &&
			(!f.status || t.status === f.status) &&
			(!f.transaction_category || t.category === f.transaction_category) &&
			(!f.reference_number || t.reference === f.reference_number) &&
			(!f.channel || t.channel === f.channel) &&
			(!needle || t.narration.toLowerCase().includes(needle) || t.reference.toLowerCase().includes(needle)),
		ctx.body,
	);
}

export const transactionRoutes: RouteDef[] = [
	route({
		path: `${V1}/transaction/api/fetch_transactions`,
		auth: 'api',
		schema: transactionsSchema,
		handler: (ctx) => {
			if (!businessOf(ctx).active) throw new ApiError('60', 'Customer not active: this business is not active');
			return { data: matchingTransactions(ctx).map(present.txApi), message: 'Transactions fetched successfully' };
		},
	}),
	route({
		path: `${V1}/transaction/web/fetch_transactions`,
		auth: 'web',
		schema: transactionsSchema,
		handler: (ctx) => ({
			data: matchingTransactions(ctx).map(present.txWeb),
			message: 'Transactions fetched successfully',
		}),
	}),
	route({
		path: `${V1}/transaction/web/fetch_settlement_transactions`,
		auth: 'web',
		schema: z
			.object({
				filters: rangeFilters({
					account_number: accountNumber.nullish(),
					...dateRangeShape,
					reference: freeText.nullish(),
					status: txStatus.nullish(),
				}),
				...pagingShape,
			})
			.strict()
			.superRefine(checkCursor),
		handler: (ctx) => {
			const businessId = businessOf(ctx).id;
			const f = ctx.body.filters ?? {};
			const window = dateWindow(f);
			const items = newestFirst(
				ctx.rt.bank.settlements,
				(s) =>
					s.businessId === businessId &&
					inWindow(s.settlementDateMs, window) &&
					(!f.account_number || s.accountNumber === f.account_number) &&
					(!f.reference || s.reference === f.reference) &&
					(!f.status || s.status === f.status),
			);
			return { data: pageOrCursor(items, ctx.body).map(present.settlement), message: 'Settlements fetched successfully' };
		},
	}),
];
