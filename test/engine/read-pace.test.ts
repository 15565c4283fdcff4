/**
 * Many reads in one run find the bank's pace (nodes/common/transport/pace.ts): more in flight while the bank keeps
 * up, fewer when it says it is busy; a Concurrency the user sets is the most in flight; state changes keep theirs.
 */
import type { RequestLogEntry } from '../../sandbox';
import { api, VIRTUALS } from './harness/accounts';
import { useBankFixture } from './harness/bankFixture';
import { API } from './harness/bankFixture';
import { rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';
import { createParams, newReference } from './harness/transfers';

const BALANCE = '/get_account_balance';

/** The most requests to `suffix` the bank was handling at the same time. */
function peakInFlight(entries: RequestLogEntry[], suffix: string): number {
	const edges = entries
		.filter((e) => e.path.endsWith(suffix))
		.flatMap((e) => {
			const start = Date.parse(e.at);
			return [
				{ at: start, step: 1 },
				{ at: start + e.ms, step: -1 },
			];
		})
		// At the same millisecond an answer is counted before an arrival.
		.sort((a, b) => a.at - b.at || a.step - b.step);
	let now = 0;
	let peak = 0;
	for (const edge of edges) peak = Math.max(peak, (now += edge.step));
	return peak;
}

const items = (count: number) => Array.from({ length: count }, (_, i) => ({ account_number: VIRTUALS[i % VIRTUALS.length] }));

function balances(count: number, options?: { concurrency: number }) {
	return api({ operation: 'getBalance', accountNumber: rl('={{ $json.account_number }}', 'id'), ...(options ? { options } : {}) }, { items: items(count) });
}

describe('reads find the bank\'s pace', () => {
	const fx = useBankFixture();
	beforeEach(() => fx.bank.reset());

	test('on a bank that keeps up, a run without Concurrency goes from 5 to more in flight, at most 50, output in order', async () => {
		// Answers slow enough that what the window allows is in flight at the bank even when a busy machine is slow to
		// send it (at 20 ms, a machine loaded by other work kept 18 in flight where the window allowed 50).
		fx.bank.addFault({ match: BALANCE, latencyMs: 100 });
		const run = await runNode(fx.credentials, balances(300));
		expect(run.error).toBeUndefined();
		expect(run.json.map((j) => j.account_number)).toEqual(items(300).map((i) => i.account_number));
		expect(run.items.map((i) => i.pairedItem)).toEqual(items(300).map((_, item) => ({ item })));
		const peak = peakInFlight(fx.bank.requests(), BALANCE);
		expect(peak).toBeGreaterThan(20);
		expect(peak).toBeLessThanOrEqual(50);
	});

	test('a Concurrency the user sets is the most in flight', async () => {
		fx.bank.addFault({ match: BALANCE, latencyMs: 100 });
		const run = await runNode(fx.credentials, balances(120, { concurrency: 8 }));
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(120);
		const peak = peakInFlight(fx.bank.requests(), BALANCE);
		expect(peak).toBeLessThanOrEqual(8);
		expect(peak).toBeGreaterThanOrEqual(6);
	});

	test('on a bank allowing 40 requests a second, every item succeeds; after the first refusals only a few a second', async () => {
		fx.bank.addFault({ match: BALANCE, latencyMs: 20 });
		fx.bank.addFault({ match: BALANCE, rateLimit: { retryAfterSeconds: 1, perSecond: 40 } });
		const run = await runNode(fx.credentials, balances(200));
		expect(run.error).toBeUndefined();
		expect(run.json.map((j) => j.account_number)).toEqual(items(200).map((i) => i.account_number));
		const balanceRequests = fx.bank.requests().filter((e) => e.path.endsWith(BALANCE));
		const refusedAt = balanceRequests.filter((e) => e.status === 429).map((e) => Date.parse(e.at));
		expect(balanceRequests.length - refusedAt.length).toBe(200);
		// The run learns the limit by meeting it: the requests in flight then are refused together (at most 50).
		const firstBurst = refusedAt.filter((at) => at < refusedAt[0] + 1000);
		expect(firstBurst.length).toBeLessThanOrEqual(50);
		// From then on the run waits as told and starts small: measured 22 in the 4 seconds left (halving alone: about 80).
		expect(refusedAt.length - firstBurst.length).toBeLessThan(40);
	});

	test('a state change keeps the number of items the user chose (1 by default), whatever the bank answers', async () => {
		fx.bank.addFault({ match: 'create_customer_account', latencyMs: 20 });
		const customers = Array.from({ length: 12 }, (_, i) => ({ name: `Pace ${i}`, bvn: `2221234${String(i).padStart(4, '0')}` }));
		const run = await runNode(
			fx.credentials,
			api({ operation: 'create', accountName: '={{ $json.name }}', email: 'pace@example.com', phone: '+2348031234567', bvn: '={{ $json.bvn }}' }, { items: customers }),
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(12);
		expect(peakInFlight(fx.bank.requests(), 'create_customer_account')).toBe(1);
	});

	describe("a state change's Concurrency is held to the form's maximum (20) whatever its source", () => {
		const payouts = (count: number) => Array.from({ length: count }, () => ({ reference_number: newReference('pace') }));
		for (const [source, concurrency] of [
			['an expression giving 40', '={{ 40 }}'],
			["a read's 50, kept by n8n when the operation was switched to Transfer → Create", 50],
		] as const) {
			test(`${source}: at most 20 payouts in flight, each paid once`, async () => {
				fx.bank.addFault({ match: 'funds_transfer', latencyMs: 100 });
				const items = payouts(80);
				const run = await runNode(fx.credentials, { parameters: createParams({ amount: '1.00', options: { concurrency } }), credentials: API, items });
				expect(run.error).toBeUndefined();
				expect(run.json.map((j) => j.reference_number)).toEqual(items.map((i) => i.reference_number));
				const peak = peakInFlight(fx.bank.requests(), 'funds_transfer');
				expect(peak).toBeLessThanOrEqual(20);
				expect(peak).toBeGreaterThanOrEqual(15);
				const paid = [...fx.bank.bank.transfers.values()].map((t) => t.reference);
				for (const { reference_number } of items) expect(paid.filter((r) => r === reference_number)).toHaveLength(1);
			});
		}
	});

	describe('Retry-After', () => {
		const read = async () => await runNode(fx.credentials, balances(1));

		test('a wait up to 60 s is honoured (the bank asks 2 s: the read waits 2 s, then succeeds)', async () => {
			fx.bank.addFault({ match: BALANCE, rateLimit: { retryAfterSeconds: 2 }, times: 1 });
			const started = Date.now();
			const run = await read();
			expect(run.error).toBeUndefined();
			expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
			expect(fx.bank.requests().filter((e) => e.path.endsWith(BALANCE))).toHaveLength(2);
		});

		test('a longer one (3600 s) fails the item at once with "the bank asks to wait 3600 s", asking once', async () => {
			fx.bank.addFault({ match: BALANCE, rateLimit: { retryAfterSeconds: 3600 } });
			const started = Date.now();
			const run = await read();
			// Not waited: neither the 3600 s asked nor the most the node honours, 60 s (a busy machine may add seconds).
			expect(Date.now() - started).toBeLessThan(30_000);
			expect(run.error).toMatchObject({
				context: { responseCode: '29', retryAfterSeconds: 3600 },
				message: expect.stringMatching(/^The bank asks to wait 3600 s before the next request/),
				description: expect.stringMatching(/^Nothing was done for this item\. n8n waits at most 60 s when the bank asks; run the item again after \d{4}-\d\d-\d\d \d\d:\d\d UTC/),
			});
			expect(fx.bank.requests().filter((e) => e.path.endsWith(BALANCE))).toHaveLength(1);
		});
	});
});
