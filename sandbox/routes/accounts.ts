/** Account routes. Aggregates (summaries, collections, metrics, totals) are computed from the ledger per request. */
import { z } from 'zod';
import { ApiError } from '../http/envelope';
import { formatAmount } from '../data/money';
import * as present from '../http/present';
import { businessOf, route, V1, type RouteDef, type RouteContext } from '../http/routeDefinition';
import type { Bank } from '../state/bank';
import { dateWindow, inWindow } from '../state/filters';
import { cursorSlice, type PageQuery } from '../state/listing';
import type { Account } from '../state/records';
import { compareNewestFirst } from '../state/sorted';
import { iso } from '../data/time';
import {
	accountNumber,
	accountStatus,
	accountTypeFilter,
	checkCursor,
	checkRange,
	cursorShape,
	dateRangeShape,
	email,
	emptyBody,
	identityNumber,
	isoDate,
	nonEmpty,
	positiveInt,
	rangeFilters,
} from '../http/requestValidation';

interface AccountFilter {
	account_type?: string | null;
	account_number?: string | null;
	status?: string | null;
	is_available?: boolean | null;
	pool_account_number?: string | null;
}

/** The caller's accounts matching the filter, newest first (created_at desc, id desc). */
function listAccounts(bank: Bank, businessId: string, f: AccountFilter | null | undefined): Account[] {
	return bank
		.businessAccounts(businessId)
		.filter(
			(a) =>
				(!f?.account_type || a.accountType === f.account_type) &&
				(!f?.account_number || a.accountNumber === f.account_number) &&
				(!f?.status || a.status === f.status) &&
				(f?.is_available == null || (a.status === 'active') === f.is_available) &&
				(!f?.pool_account_number || a.poolAccountNumber === f.pool_account_number),
		)
		.sort(compareNewestFirst);
}

interface Aggregate {
	collections: number;
	collectionAmount: bigint;
	transfers: number;
	transferAmount: bigint;
	lastTxMs: number | null;
	lastCreditMs: number | null;
}

const EMPTY: Aggregate = { collections: 0, collectionAmount: 0n, transfers: 0, transferAmount: 0n, lastTxMs: null, lastCreditMs: null };

/** Counts successful credits (collections) and debits (transfers) per account, within a date window. */
function aggregate(bank: Bank, businessId: string, window: [number, number]): Map<string, Aggregate> {
	const out = new Map<string, Aggregate>();
	for (const tx of bank.transactions) {
		if (tx.businessId !== businessId || !inWindow(tx.createdAtMs, window)) continue;
		let a = out.get(tx.accountNumber);
		if (!a) {
			a = { ...EMPTY };
			out.set(tx.accountNumber, a);
		}
		a.lastTxMs = Math.max(a.lastTxMs ?? 0, tx.createdAtMs);
		if (tx.type === 'credit') a.lastCreditMs = Math.max(a.lastCreditMs ?? 0, tx.createdAtMs);
		if (tx.status !== 'success') continue;
		if (tx.type === 'credit') {
			a.collections++;
			a.collectionAmount += tx.amount;
		} else {
			a.transfers++;
			a.transferAmount += tx.amount;
		}
	}
	return out;
}

/** One cursor page of the caller's accounts matching the body's filters, each beside its aggregates over `window`. */
function pageWithAggregates(ctx: RouteContext<AccountFilter & PageQuery>, window: [number, number]): Array<[Account, Aggregate]> {
	const id = businessOf(ctx).id;
	const aggs = aggregate(ctx.rt.bank, id, window);
	return cursorSlice(listAccounts(ctx.rt.bank, id, ctx.body), ctx.body, ctx.rt.identifiedListPolicy()).map((a) => [a, aggs.get(a.accountNumber) ?? EMPTY]);
}

/** A summaries/collections item: the account, its collections, `totals` (if any), the last date and created_at. */
function aggregateItem(a: Account, g: Aggregate, lastMs: number | null, totals: Record<string, unknown> = {}) {
	return {
		...present.accountBase(a),
		account_class: a.accountClass,
		pool_account_number: a.poolAccountNumber,
		total_collections: g.collections,
		total_collection_amount: formatAmount(g.collectionAmount),
		...totals,
		last_transaction_date: lastMs === null ? null : iso(lastMs),
		created_at: iso(a.createdAtMs),
	};
}

/** The first `count` accounts when a count is given (count caps the whole listing, across pages). */
function capped(accounts: Account[], count: number | null | undefined): Account[] {
	return count ? accounts.slice(0, count) : accounts;
}

function sumBalances(accounts: Account[]): string {
	return formatAmount(accounts.reduce((s, a) => s + a.balance, 0n));
}

/** The account filters of summaries and collections. */
const accountFilterShape = {
	account_type: accountTypeFilter.nullish(),
	account_number: accountNumber.nullish(),
	status: accountStatus.nullish(),
};

const poolAccountNumber = z.string().max(10, { message: 'must be at most 10 characters' });

const customerAccountsSchema = z
	.object({
		filters: z
			.object({
				account_type: accountTypeFilter.nullish(),
				status: accountStatus.nullish(),
				pool_account_number: poolAccountNumber.nullish(),
				is_available: z.boolean().nullish(),
				account_number: accountNumber.nullish(),
			})
			.strict()
			.nullish(),
		...cursorShape,
		count: positiveInt.nullish(),
	})
	.strict()
	.superRefine(checkCursor);

function fetchCustomerAccounts(ctx: RouteContext<z.infer<typeof customerAccountsSchema>>) {
	// count caps the whole listing (across pages), limit the page.
	const accounts = capped(listAccounts(ctx.rt.bank, businessOf(ctx).id, ctx.body.filters), ctx.body.count);
	return { data: cursorSlice(accounts, ctx.body, ctx.rt.identifiedListPolicy()).map(present.accountListItem), message: 'Accounts fetched successfully' };
}

/** get_account_balance: the two APIs differ only in the error for an account that is not the caller's. */
function balanceRoute(auth: 'api' | 'web', notOwned: (accountNumber: string) => ApiError): RouteDef {
	return route({
		path: `${V1}/account/${auth}/get_account_balance`,
		auth,
		schema: z.object({ account_number: accountNumber }).strict(),
		handler: (ctx) => {
			const account = ctx.rt.bank.ownedAccount(businessOf(ctx).id, ctx.body.account_number);
			if (!account) throw notOwned(ctx.body.account_number);
			return { data: present.accountBase(account), message: 'Balance fetched successfully' };
		},
	});
}

export const accountRoutes: RouteDef[] = [
	route({
		path: `${V1}/account/api/create_customer_account`,
		auth: 'api',
		schema: z
			.object({
				email,
				phone: nonEmpty(32),
				bvn: identityNumber.nullish(),
				nin: identityNumber.nullish(),
				account_name: nonEmpty(255),
			})
			.strict()
			.superRefine((v, ctx) => {
				if (!v.bvn && !v.nin) ctx.addIssue({ code: 'custom', path: ['bvn'], message: 'at least one of bvn or nin is required' });
			}),
		handler: (ctx) => {
			const account = ctx.rt.bank.createCustomerAccount(businessOf(ctx).id, ctx.body, ctx.now);
			return { data: present.accountListItem(account), message: 'Account created successfully' };
		},
	}),
	balanceRoute('api', () => new ApiError('83', 'Balance query rejected: account not found for this business')),
	balanceRoute('web', (n) => new ApiError('44', `Account not found: ${n}`)),
	route({ path: `${V1}/account/api/fetch_customer_accounts`, auth: 'api', schema: customerAccountsSchema, handler: fetchCustomerAccounts }),
	route({ path: `${V1}/account/web/fetch_customer_accounts`, auth: 'web', schema: customerAccountsSchema, handler: fetchCustomerAccounts }),
	route({
		path: `${V1}/account/web/fetch_account_summaries`,
		auth: 'web',
		schema: z
			.object({ ...accountFilterShape, is_available: z.boolean().nullish(), ...cursorShape })
			.strict()
			.superRefine(checkCursor),
		handler: (ctx) => {
			const data = pageWithAggregates(ctx, [-Infinity, Infinity]).map(([a, g]) =>
				aggregateItem(a, g, g.lastTxMs, {
					total_transfers: g.transfers,
					total_transfer_amount: formatAmount(g.transferAmount),
					total_transactions: g.collections + g.transfers,
				}),
			);
			return { data, message: 'Account summaries fetched successfully' };
		},
	}),
	route({
		path: `${V1}/account/web/fetch_account_collections`,
		auth: 'web',
		schema: z
			.object({
				...accountFilterShape,
				pool_account_number: poolAccountNumber.nullish(),
				// date before the range here (not dateRangeShape's order): error messages list fields in key order.
				date: isoDate.nullish(),
				start_date: isoDate.nullish(),
				end_date: isoDate.nullish(),
				...cursorShape,
			})
			.strict()
			.superRefine(checkCursor)
			.superRefine(checkRange),
		handler: (ctx) => {
			// The date filters scope the aggregates; every matching account is listed, with zeros if idle.
			const data = pageWithAggregates(ctx, dateWindow(ctx.body)).map(([a, g]) => aggregateItem(a, g, g.lastCreditMs));
			return { data, message: 'Account collections fetched successfully' };
		},
	}),
	route({
		path: `${V1}/account/web/get_total_account_metrics`,
		auth: 'web',
		schema: z
			.object({
				filters: rangeFilters({
					...dateRangeShape,
					account_number: accountNumber.nullish(),
					account_type: accountTypeFilter.nullish(),
					status: accountStatus.nullish(),
				}),
				count: positiveInt.nullish(),
				skip_count: z.boolean().nullish(),
			})
			.strict(),
		handler: (ctx) => {
			const id = businessOf(ctx).id;
			const accounts = capped(listAccounts(ctx.rt.bank, id, ctx.body.filters), ctx.body.count);
			const aggs = aggregate(ctx.rt.bank, id, dateWindow(ctx.body.filters));
			const counted = !ctx.body.skip_count;
			return {
				data: {
					total_active_accounts: counted ? accounts.filter((a) => a.status === 'active').length : null,
					total_inactive_accounts: counted ? accounts.filter((a) => a.status === 'inactive').length : null,
					total_virtual_accounts: counted ? accounts.filter((a) => a.accountType === 'virtual').length : null,
					total_volume_collected: formatAmount(accounts.reduce((s, a) => s + (aggs.get(a.accountNumber)?.collectionAmount ?? 0n), 0n)),
					total_business_balance: sumBalances(accounts),
				},
				message: 'Account metrics fetched successfully',
			};
		},
	}),
	route({
		path: `${V1}/account/web/get_total_balance`,
		auth: 'web',
		schema: emptyBody,
		handler: (ctx) => {
			const active = ctx.rt.bank.businessAccounts(businessOf(ctx).id).filter((a) => a.status === 'active');
			return { data: { total_balance: sumBalances(active) }, message: 'Total balance fetched successfully' };
		},
	}),
	route({
		path: `${V1}/account/web/update_account_status`,
		auth: 'web',
		schema: z.object({ account_number: accountNumber, status: z.enum(['active', 'inactive']) }).strict(),
		handler: (ctx) => {
			const account = ctx.rt.bank.updateAccountStatus(businessOf(ctx).id, ctx.body.account_number, ctx.body.status);
			return { data: present.accountBase(account), message: `Account status updated to ${account.status}` };
		},
	}),
];
