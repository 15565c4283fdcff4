/** The Account → Get Balance workload benchmarks 1 and 2 share (bench/bulkReads.ts, bench/httpRequestNode.ts). */
import type { BankFixture } from './engine';
import { rl } from './engine';

/** `count` items, each naming one of the seeded active accounts in turn. */
export function balanceItems(fx: BankFixture, count: number) {
	const accounts = fx.bank.seed.accounts.filter((a) => a.status === 'active').map((a) => a.account_number);
	return Array.from({ length: count }, (_, i) => ({ account_number: accounts[i % accounts.length] }));
}

/** Get Balance of each item's account_number; without `concurrency`, at the node's default. */
export function balanceParameters(concurrency?: number): Record<string, unknown> {
	return {
		resource: 'account',
		operation: 'getBalance',
		accountNumber: rl('={{ $json.account_number }}', 'id'),
		...(concurrency ? { options: { concurrency } } : {}),
	};
}
