/**
 * Benchmark 6 (issue 35): a busy day reconciled through the engine. N expected payments against the day's
 * collections (5 % of each outcome: underpaid, overpaid, paid in parts, paid twice, not paid yet, pending,
 * failed, unexpected; the rest matched) with Reconciliation → Match Expected Payments, beside reading the same
 * pages and keeping nothing (bench/lib/readOnlyNode.ts: the pages of 1,000 the reconciliation asks), Transaction →
 * Get Many (Return All, pages of 100, same filters), and the matching's own cost (reading the rows' keys and
 * amounts, the bank's amounts, and the matching) timed alone on the same records.
 */
import type { IDataObject } from 'n8n-workflow';

import { collectionFilters } from '../nodes/common/actions/reconciliation/collections';
import type { Collection } from '../nodes/common/actions/reconciliation/matching';
import { matchKey, reconcile } from '../nodes/common/actions/reconciliation/matching';
import { toKobo } from '../nodes/common/validation';
import type { Account } from '../sandbox/state/records';
import type { BankFixture } from './lib/engine';
import { forgetToken, runBaas } from './lib/engine';
import { readOnly } from './lib/readOnlyNode';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import { alternate, ratio, timed } from './lib/stats';

const DAY = '2026-01-02';
const DAY_MS = Date.parse(`${DAY}T08:00:00Z`);
/** Per 20 rows: one of each exception, the rest matched (so 5 % each). */
const PLAN = ['underpaid', 'overpaid', 'paid in parts', 'paid twice', 'not paid yet', 'pending', 'failed'] as const;

/** N virtual accounts, one per expected payment, and the day's collections on them (in the bank, in process). */
function makeDay(fx: BankFixture, rows: number): IDataObject[] {
	const bank = fx.bank.bank;
	const model = bank.accounts.get('0823100001')!;
	const open = (accountNumber: string) => bank.accounts.set(accountNumber, { ...model, id: bank.newId(), accountNumber, balance: 0n } satisfies Account);
	let second = 0;
	const pay = (accountNumber: string, kobo: bigint, status: 'success' | 'pending' | 'failed' = 'success') => {
		const { transaction } = bank.collect({ accountNumber, amount: kobo }, DAY_MS + second++ * 1000);
		transaction.status = status;
	};
	const expected: IDataObject[] = [];
	for (let i = 0; i < rows; i++) {
		const account = `09${String(i).padStart(8, '0')}`;
		open(account);
		const kobo = BigInt(100_000 + (i % 997) * 100 + 50);
		expected.push({ customer: `Customer ${i}`, account_number: account, amount: `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}` });
		const plan = PLAN[i % 20];
		if (plan === 'underpaid') pay(account, kobo - 5_000n);
		else if (plan === 'overpaid') pay(account, kobo + 5_000n);
		else if (plan === 'paid in parts') [kobo / 2n, kobo - kobo / 2n].forEach((part) => pay(account, part));
		else if (plan === 'paid twice') [kobo, kobo].forEach((part) => pay(account, part));
		else if (plan === 'pending' || plan === 'failed') pay(account, kobo, plan);
		else if (plan !== 'not paid yet') pay(account, kobo);
		// 5 % unexpected: money on accounts nobody expected anything on.
		if (i % 20 === 0) {
			open(`08${String(i).padStart(8, '0')}`);
			pay(`08${String(i).padStart(8, '0')}`, 250_000n);
		}
	}
	return expected;
}

/** The matching's own work on records already read: the rows' keys and amounts, the bank's amounts, the matching. */
function matchOnly(rows: IDataObject[], records: IDataObject[]): number {
	const expected = rows.map((row) => ({ key: matchKey(row.account_number), kobo: toKobo(row.amount).kobo! }));
	const collections: Array<Collection<IDataObject>> = records.map((record) => ({
		key: matchKey(record.account_number),
		reference: String(record.reference_number),
		kobo: toKobo(record.amount).kobo!,
		status: String(record.status),
		createdAt: String(record.created_at),
		record,
	}));
	return reconcile(expected, collections.reverse(), 0n).rows.length;
}

export async function reconciliationDay(fx: BankFixture, options: { rows: number; repetitions: number; latencyMs: number }): Promise<BenchResult> {
	fx.bank.bank.reset();
	fx.bank.addFault({ match: 'fetch_transactions', latencyMs: options.latencyMs });
	const rows = makeDay(fx, options.rows);
	const filters = { startDate: DAY, endDate: DAY, transactionType: 'credit', transactionCategory: 'collection' };
	let records: IDataObject[] = [];
	let outcomes: Record<string, number> = {};
	const contenders = [
		{
			name: 'Match Expected Payments',
			run: async () => {
				forgetToken(fx);
				const { ms, value: run } = await timed(() => runBaas(fx, { resource: 'reconciliation', operation: 'matchPayments', startDate: DAY, endDate: DAY }, rows));
				if (run.error) throw new Error(String(run.error.message));
				outcomes = {};
				for (const json of run.json) outcomes[String(json.reconciliation_outcome)] = (outcomes[String(json.reconciliation_outcome)] ?? 0) + 1;
				return { ms, items: run.json.length };
			},
		},
		{
			name: 'reading the same pages, nothing kept',
			run: async () => {
				forgetToken(fx);
				const { ms, value: run } = await timed(() => readOnly(fx.credentials, collectionFilters(DAY, DAY)));
				if (run.error) throw new Error(String(run.error.message));
				return { ms, items: Number(run.json[0].count) };
			},
		},
		{
			name: 'reading the pages (Transaction → Get Many, Return All)',
			run: async () => {
				forgetToken(fx);
				const { ms, value: run } = await timed(() => runBaas(fx, { resource: 'transaction', operation: 'getAll', returnAll: true, simplify: false, filters }, [{}]));
				if (run.error) throw new Error(String(run.error.message));
				records = run.json;
				return { ms, items: run.json.length };
			},
		},
		{
			name: 'matching alone (records already read)',
			run: async () => {
				const { ms } = await timed(async () => matchOnly(rows, records));
				return { ms, items: rows.length };
			},
		},
	];
	// One reading first, so the matching alone has its records whichever contender a round starts with.
	await contenders[2].run();
	const m = await alternate(contenders, options.repetitions);
	const ours = m['Match Expected Payments'].ms;
	const read = m['reading the same pages, nothing kept'].ms;
	const getMany = m['reading the pages (Transaction → Get Many, Return All)'].ms;
	const alone = m['matching alone (records already read)'].ms;
	const ratios = {
		'Match Expected Payments / reading': ratio(ours, read),
		'matching alone / reading': ratio(alone, read),
		'(Match Expected Payments − reading) / reading': ratio(ours - read, read),
		'matching alone / Get Many': ratio(alone, getMany),
	};
	return {
		benchmark: '6. Reconciliation → Match Expected Payments, a busy day',
		workload: `${rows.length} expected payments (one virtual account each) against ${records.length} collections of ${DAY} (5 % of each outcome); pages of 1,000 (Get Many: 100), bank answering in ${options.latencyMs} ms; medians of ${options.repetitions}`,
		rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
		ratios,
		targets: [target('matching alone / reading', ratios['matching alone / reading'], 0.1)],
		notes: [`outcomes of the last run: ${Object.entries(outcomes).map(([outcome, count]) => `${outcome} ${count}`).join(', ')}`],
	};
}
