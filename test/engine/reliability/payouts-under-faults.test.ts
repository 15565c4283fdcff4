/**
 * Payouts under faults: intra- and inter-bank transfers through Transfer → Create while about 20% of the sends
 * meet a fault (code 80, latency beyond the request timeout, connection dropped before or after the bank
 * records, 429 with Retry-After) and status reads fail too. Each item's reported outcome is compared with the
 * bank's ledger once every late send has landed.
 */
import type { IDataObject } from 'n8n-workflow';

import { REQUEST_LIMITS } from '../../../nodes/common/transport/request';
import { API, useBankFixture } from '../harness/bankFixture';
import { rl } from '../harness/nodeParameters';
import { runNode } from '../harness/runNode';
import { reportFigures, sized } from './scale';

const TRANSFERS = sized(60, 1_000);
const TIMEOUT_MS = 400;
const LATENCY_MS = 1_000;
const SOURCE = '0823000002';
const INTRA_BENEFICIARY = '0823100001';

const fx = useBankFixture({ interSettleDelayMs: 50 });

/** Sends: 4% code 80, 3% slower than the timeout, 4% dropped before and 5% after the bank acts, 4% 429 (≈ 20%). */
const SEND_FAULTS = [
	{ errorCode: '80', errorRate: 0.04 },
	{ latencyMs: LATENCY_MS, errorRate: 0.03 },
	{ drop: 'before' as const, errorRate: 0.04 },
	{ drop: 'after' as const, errorRate: 0.05 },
	{ rateLimit: { retryAfterSeconds: 0 }, errorRate: 0.04 },
];
/** Status reads: 25% refused (83, not retried) and 15% dropped (retried as reads are). */
const STATUS_FAULTS = [
	{ errorCode: '83', errorRate: 0.25 },
	{ drop: 'before' as const, errorRate: 0.15 },
];

const defaultTimeout = REQUEST_LIMITS.timeoutMs;
afterAll(() => {
	REQUEST_LIMITS.timeoutMs = defaultTimeout;
});

test(`${TRANSFERS} transfers under faults: one ledger entry per reference at most, every reported outcome matches the ledger`, async () => {
	const bank = fx.bank.bank;
	const businessId = bank.main.id;
	const external = fx.bank.seed.externalAccounts;
	const items: IDataObject[] = Array.from({ length: TRANSFERS }, (_, i) => {
		const inter = i % 2 === 1;
		const to = external[i % external.length];
		return {
			reference_number: `PF-${Date.now()}-${i}`,
			type: inter ? 'inter' : 'intra',
			to: inter ? to.account_number : INTRA_BENEFICIARY,
			bank: inter ? to.bank_code : '',
			amount: `${1 + (i % 9)}.${String(i % 100).padStart(2, '0')}`,
			narration: `Payout ${i}`,
		};
	});
	// Enough money for every payout, so a refusal can only come from a fault or the bank's rules.
	bank.accounts.get(SOURCE)!.balance += 10_000_000n;

	REQUEST_LIMITS.timeoutMs = TIMEOUT_MS;
	for (const fault of SEND_FAULTS) fx.bank.addFault({ match: 'funds_transfer', ...fault });
	for (const fault of STATUS_FAULTS) fx.bank.addFault({ match: 'transaction_status', ...fault });
	const run = await runNode(fx.credentials, {
		parameters: {
			authentication: 'apiClient',
			resource: 'transfer',
			operation: 'create',
			transferType: '={{ $json.type }}',
			amount: '={{ $json.amount }}',
			sourceAccountNumber: rl(`={{ "${SOURCE}" }}`, 'id'),
			beneficiaryAccountNumber: '={{ $json.to }}',
			bankCode: rl('={{ $json.bank }}', 'id'),
			narration: '={{ $json.narration }}',
			options: { concurrency: 5 },
		},
		credentials: API,
		items,
		continueOnFail: true,
	});
	fx.bank.clearFaults();
	REQUEST_LIMITS.timeoutMs = defaultTimeout;
	// Let every send the node gave up on land (or be refused), and every inter-bank transfer settle.
	await new Promise((resolve) => setTimeout(resolve, LATENCY_MS + 500));
	await fx.bank.settlePending();

	const sends = fx.bank.requests().filter((r) => r.path.endsWith('/funds_transfer'));
	const figures = {
		transfers: TRANSFERS,
		sends: sends.length,
		faulted_sends: sends.filter((r) => r.status !== 200).length,
		max_ledger_entries_per_reference: 0,
		made: 0,
		refused: 0,
		unknown: 0,
		unknown_status_unreadable: 0,
		unknown_bank_still_working: 0,
		mismatches: 0,
	};
	const mismatched: string[] = [];
	expect(run.json).toHaveLength(TRANSFERS);
	items.forEach((item, i) => {
		const reference = String(item.reference_number);
		const entries = bank.transactions.filter((t) => t.businessId === businessId && t.reference === reference && t.type === 'debit').length;
		figures.max_ledger_entries_per_reference = Math.max(figures.max_ledger_entries_per_reference, entries);
		const held = bank.findTransfer(businessId, reference);
		const reported = run.json[i];
		const outcome = String(reported.outcome);
		let matches: boolean;
		if (outcome === 'successful' || outcome === 'pending' || outcome === 'failed') {
			figures.made++;
			// A pending transfer may have settled since; a final status must be the ledger's.
			matches = held !== undefined && (outcome === 'pending' || held.status === outcome) && reported.reference_number === reference;
		} else if (outcome === 'refused') {
			figures.refused++;
			matches = held === undefined;
		} else if (outcome === 'unknown') {
			figures.unknown++;
			const unreadable = /status could not be read/.test(String(reported.error));
			// Both sends went unanswered and the bank had no record yet: it may land later (and may have).
			const stillWorking = /had no record of it when asked; it may still be working on it/.test(String(reported.error));
			if (unreadable) figures.unknown_status_unreadable++;
			if (stillWorking) figures.unknown_bank_still_working++;
			matches = unreadable || stillWorking;
		} else {
			matches = false;
		}
		if (!matches) {
			figures.mismatches++;
			mismatched.push(`${reference}: ${outcome} ${String(reported.error ?? '')} ledger=${held?.status ?? 'none'}`);
		}
	});
	reportFigures('payouts-under-faults', figures);
	expect(mismatched).toEqual([]);
	expect(figures.max_ledger_entries_per_reference).toBe(1);
	expect(figures.unknown).toBe(figures.unknown_status_unreadable + figures.unknown_bank_still_working);
	expect(figures.faulted_sends).toBeGreaterThan(0);
}, sized(120_000, 900_000));
