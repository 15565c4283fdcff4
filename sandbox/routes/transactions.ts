/** Transaction and settlement history (page- and cursor-capable). */
import { z } from 'zod';
import { ApiError } from '../http/envelope';
import * as present from '../http/present';
import { businessOf, route, V1, type RouteContext, type RouteDef, type RouteResult } from '../http/routeDefinition';
import { dateWindow, inWindow } from '../state/filters';
import { newestFirstPage } from '../state/listing';
import type { Settlement, Transaction } from '../state/records';
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
		ctx.rt.bank.transactionLedger,
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
		ctx.rt.listPolicy(),
	);
}

/**
 * A list answer: each record in the configured shape (a record marked malformed as its corrupt form, in its own
 * slot), and the onListServed hooks run once it is sent.
 */
function served<T extends Transaction | Settlement>(
	ctx: RouteContext<unknown>,
	path: string,
	records: T[],
	shaped: (record: T) => Record<string, unknown>,
	message: string,
): RouteResult {
	const { malformed } = ctx.rt.bank;
	const data = records.map((record) => {
		const as = malformed.get(record.reference);
		return as === undefined ? shaped(record) : present.corrupted(shaped(record), as);
	});
	return { data, message, afterServed: () => ctx.rt.listServed({ path, items: data.length }) };
}

const API_LIST = `${V1}/transaction/api/fetch_transactions`;
const WEB_LIST = `${V1}/transaction/web/fetch_transactions`;
const SETTLEMENT_LIST = `${V1}/transaction/web/fetch_settlement_transactions`;

export const transactionRoutes: RouteDef[] = [
	route({
		path: API_LIST,
		auth: 'api',
		schema: transactionsSchema,
		handler: (ctx) => {
			if (!businessOf(ctx).active) throw new ApiError('60', 'Customer not active: this business is not active');
			const shape = ctx.rt.config.listShape;
			return served(ctx, API_LIST, matchingTransactions(ctx), (t) => present.txApi(t, shape), 'Transactions fetched successfully');
		},
	}),
	route({
		path: WEB_LIST,
		auth: 'web',
		schema: transactionsSchema,
		handler: (ctx) => {
			const shape = ctx.rt.config.listShape;
			return served(ctx, WEB_LIST, matchingTransactions(ctx), (t) => present.txWeb(t, shape), 'Transactions fetched successfully');
		},
	}),
	route({
		path: SETTLEMENT_LIST,
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
			const page = newestFirstPage(
				ctx.rt.bank.settlementLedger,
				(s) =>
					s.businessId === businessId &&
					inWindow(s.settlementDateMs, window) &&
					(!f.account_number || s.accountNumber === f.account_number) &&
					(!f.reference || s.reference === f.reference) &&
					(!f.status || s.status === f.status),
				ctx.body,
				ctx.rt.listPolicy(),
			);
			const shape = ctx.rt.config.listShape;
			return served(ctx, SETTLEMENT_LIST, page, (s) => present.settlement(s, shape), 'Settlements fetched successfully');
		},
	}),
];
