import type { IDataObject } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../../nodes/common/transport/request';
import { useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { inListShape, LIST_SHAPES } from './harness/listShapes';
import { asDashboardUser, rl } from './harness/nodeParameters';
import { addSettlement, collect, dayOf, leaveCollectionAs, removeSettlementAt, settlementOf } from './harness/reconciliation';
import { runNode } from './harness/runNode';

const fx = useBankFixture({ transactions: 3000 });
afterEach(() => fx.bank.configure({ pageCap: null, pageOffsets: 'served' }));

const web = asDashboardUser({ resource: 'reconciliation', operation: 'checkSettlements' });
const DAY_MS = 86_400_000;

/** A day of collections with every exception a real day has; returns the day and the references by case. */
async function dayWithExceptions() {
	const paid = async (account: string, amount: string) => String((await collect(fx, { account_number: account, amount })).reference_number);
	const settled = await paid('0823100001', '1000');
	const unsettled = await paid('0823100002', '500.50');
	const otherAmount = await paid('0823100003', '700');
	const twice = await paid('0823100004', '300');
	const late = await paid('0823000002', '400');
	const pending = await paid('0823100006', '50');
	const day = dayOf(new Date(settlementOf(fx, settled).createdAtMs).toISOString());
	removeSettlementAt(fx, fx.bank.bank.settlements.indexOf(settlementOf(fx, unsettled)));
	settlementOf(fx, otherAmount).amount = 65_000n;
	addSettlement(fx, { reference: twice, accountNumber: '0823100004', amount: 30_000n, settlementDateMs: Date.now() });
	settlementOf(fx, late).settlementDateMs += DAY_MS;
	addSettlement(fx, { reference: 'SET-ORPHAN', accountNumber: '0823100005', amount: 12_345n, settlementDateMs: Date.now() });
	leaveCollectionAs(fx, pending, 'pending');
	return { day, settled, unsettled, otherAmount, twice, late };
}

describe.each(LIST_SHAPES)('Check Settlements (%s list shape)', (shape) => {
	inListShape(fx, shape);
	beforeEach(() => fx.bank.reset());

	test('each exception named, with amounts and hours; totals per account and for the day', async () => {
		const refs = await dayWithExceptions();
		const run = await runNode(fx.credentials, web({ date: refs.day }));
		expect(run.error).toBeUndefined();
		const byReference = Object.fromEntries(run.json.filter((json) => json.settlement_outcome !== 'totals').map((json) => [json.reference, json]));
		expect(Object.keys(byReference).sort()).toEqual([refs.settled, refs.unsettled, refs.otherAmount, refs.twice, refs.late, 'SET-ORPHAN'].sort());
		expect(byReference[refs.settled]).toMatchObject({ settlement_outcome: 'settled', collected_amount: '1000.00', settled_amount: '1000.00', difference: '0.00' });
		expect(byReference[refs.unsettled]).toMatchObject({ settlement_outcome: 'not settled yet', collected_amount: '500.50', settled_amount: '0.00', hours_unsettled: expect.any(Number) });
		expect(byReference[refs.unsettled].hours_unsettled as number).toBeLessThan(1);
		expect(byReference[refs.otherAmount]).toMatchObject({ settlement_outcome: 'settled with another amount', difference: '-50.00', settlement_note: 'settled NGN 50.00 less than collected' });
		expect(byReference[refs.twice]).toMatchObject({ settlement_outcome: 'settled twice', settled_amount: '600.00', settlement_note: '2 settlements totalling NGN 600.00 for NGN 300.00 collected' });
		// Settled a day late is settled: settlements are read for Settlement Days after the day.
		expect(byReference[refs.late]).toMatchObject({ settlement_outcome: 'settled', settled_amount: '400.00' });
		expect(byReference['SET-ORPHAN']).toMatchObject({ settlement_outcome: 'settlement without a collection', account_number: '0823100005', settled_amount: '123.45' });

		const totals = run.json.filter((json) => json.settlement_outcome === 'totals');
		expect(totals.map((json) => json.account_number)).toEqual(['0823000002', '0823100001', '0823100002', '0823100003', '0823100004', '0823100005', 'all']);
		expect(totals.at(-1)).toEqual({
			settlement_outcome: 'totals',
			date: refs.day,
			account_number: 'all',
			collections: 5,
			collected_amount: '2900.50',
			settled_amount: '2773.45',
			unsettled_amount: '500.50',
			count_settled: 2,
			count_not_settled_yet: 1,
			count_settled_with_another_amount: 1,
			count_settled_twice: 1,
			count_settlement_without_a_collection: 1,
		});
		// With Settlement Days 1 the late settlement (the next day) is still read; the day's items come before the totals.
		const oneDay = await runNode(fx.credentials, web({ date: refs.day, options: { settlementDays: 1 } }));
		expect(oneDay.json.find((json) => json.reference === refs.late)?.settlement_outcome).toBe('settled');
		const account = await runNode(fx.credentials, web({ date: refs.day, options: { accountNumber: rl('0823100003', 'id') } }));
		expect(account.json.map((json) => [json.settlement_outcome, json.account_number])).toEqual([
			['settled with another amount', '0823100003'],
			['totals', '0823100003'],
			['totals', 'all'],
		]);
	});
});

describe('Check Settlements: a day of the generated history, every page', () => {
	beforeAll(() => fx.bank.reset());
	type Tx = (typeof fx.bank.bank.transactions)[number];
	const busiest = () => {
		const perDay = new Map<string, Tx[]>();
		for (const t of fx.bank.bank.transactions) {
			if (t.type !== 'credit' || t.status !== 'success' || t.category !== 'collection') continue;
			const day = dayOf(new Date(t.createdAtMs).toISOString());
			perDay.set(day, [...(perDay.get(day) ?? []), t]);
		}
		return [...perDay.entries()].sort((a, b) => b[1].length - a[1].length)[0];
	};

	test.each([
		['pages as asked', null, 'served'],
		['a bank capping its pages at 7', 7, 'served'],
		['a bank capping its pages at 7 and numbering them by the size asked', 7, 'asked'],
	] as const)('every collection settled, read in full: %s', async (_name, pageCap, pageOffsets) => {
		fx.bank.configure({ pageCap, pageOffsets });
		const [day, collections] = busiest();
		expect(collections.length).toBeGreaterThan(14);
		const run = await runNode(fx.credentials, web({ date: day, options: { settlementDays: 1 } }));
		expect(run.error).toBeUndefined();
		const items = run.json.filter((json: IDataObject) => json.settlement_outcome !== 'totals');
		expect(items.map((json) => json.reference).sort()).toEqual(collections.map((t) => t.reference).sort());
		expect(new Set(items.map((json) => json.settlement_outcome))).toEqual(new Set(['settled']));
		expect(run.json.at(-1)).toMatchObject({ account_number: 'all', collections: collections.length, count_settled: collections.length, unsettled_amount: '0.00' });
	});

	test('a settlements page that fails fails the run, saying the check was not made', async () => {
		const retryBase = REQUEST_LIMITS.retryBaseMs;
		REQUEST_LIMITS.retryBaseMs = 10;
		fx.bank.configure({ pageCap: 3 });
		fx.bank.addFault({ match: 'fetch_settlement_transactions', errorCode: '80', times: 100 });
		try {
			const run = await runNode(fx.credentials, web({ date: busiest()[0] }));
			expect(run.error?.message).toMatch(/^The settlement check was not made: page 1 of the settlements could not be read\. Nothing partial was returned/);
			expect(run.json).toEqual([]);
		} finally {
			REQUEST_LIMITS.retryBaseMs = retryBase;
		}
	});
});

describe('Check Settlements: invalid input sends nothing', () => {
	test.each<[string, IDataObject, RegExp]>([
		['no date', {}, /^Date must be a date written YYYY-MM-DD/],
		['an impossible day', { date: '2026-02-30' }, /^Date is not a real calendar date/],
		['too many settlement days', { date: '2026-01-01', options: { settlementDays: 40 } }, /^Settlement Days must be at most 31/],
		['an account of 9 digits', { date: '2026-01-01', options: { accountNumber: rl('082310000', 'id') } }, /^Account Number must be exactly 10 digits/],
	])('%s', async (_name, parameters, message) => {
		await expectRejectedWithoutRequest(fx, web(parameters), message);
	});
});
