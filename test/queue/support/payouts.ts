import type { Execution } from '../../../scripts/n8n/api';
import { postLikeTheBank } from './events';
import { allExecutions, eventually, isFinished, ledger } from './observe';
import type { QueueStack } from './stack';

export interface PayoutRow extends Record<string, unknown> {
	reference: string;
	amount: string;
	account_number: string;
	bank_code: string;
	account_name: string;
	narration: string;
	/** The sheet's row number, as Google Sheets reads it (the header is row 1): the example matches outcomes by it. */
	row_number: number;
}

/** The next sheet row number to hand out: each row of the suite has its own, as rows of one sheet do. */
let nextRowNumber = 2;

/** `count` payable rows (the bank's other-bank accounts that settle successfully, reused in turn). */
export function payoutRows(stack: QueueStack, prefix: string, count: number): PayoutRow[] {
	const { externalAccounts, failingBeneficiaries } = stack.bank.seed;
	const payable = externalAccounts.filter((account) => !failingBeneficiaries.includes(account.account_number));
	return Array.from({ length: count }, (_, i) => ({
		...payable[i % payable.length],
		reference: `${prefix}-${i + 1}`,
		amount: `${10 + (i % 50)}.${String(i % 100).padStart(2, '0')}`,
		narration: `Payout ${prefix}-${i + 1}`,
		row_number: nextRowNumber++,
	}));
}

/** Starts one payout run per batch of the sheet through the load balancer; each run takes the next batch of rows. */
export async function startPayoutRuns(stack: QueueStack, rows: PayoutRow[], batchSize: number): Promise<number> {
	stack.receiver.setRows(rows, batchSize);
	const runs = Math.ceil(rows.length / batchSize);
	for (let i = 0; i < runs; i++) {
		const status = await postLikeTheBank(`${stack.proxy.url}/${stack.workflows.payouts.webhookPath}`);
		if (status !== 200) throw new Error(`starting payout run ${i + 1}: HTTP ${status}`);
	}
	return runs;
}

export async function payoutExecutions(stack: QueueStack): Promise<Execution[]> {
	return await allExecutions(stack.main.running.url, stack.apiKey, stack.workflows.payouts.id);
}

export async function waitForPayoutRuns(stack: QueueStack, count: number, timeoutMs = 600_000): Promise<Execution[]> {
	return await eventually(`${count} finished payout runs`, async () => {
		const runs = await payoutExecutions(stack);
		return runs.filter(isFinished).length >= count ? runs : undefined;
	}, timeoutMs);
}

/** Transfers the bank booked per reference of `rows`. */
export async function transfersPerReference(stack: QueueStack, rows: PayoutRow[]): Promise<Map<string, number>> {
	const wanted = new Set(rows.map((row) => row.reference));
	const counts = new Map<string, number>();
	for (const transfer of (await ledger(stack)).transfers) {
		if (wanted.has(transfer.reference_number)) counts.set(transfer.reference_number, (counts.get(transfer.reference_number) ?? 0) + 1);
	}
	return counts;
}

/**
 * The status each of `rows` got written back, by reference: the sheet example writes by row_number, as Google
 * Sheets matches rows (the last write wins, as in a sheet).
 */
export function outcomes(stack: QueueStack, rows: PayoutRow[]): Map<string, string> {
	const referenceOf = new Map(rows.map((row) => [String(row.row_number), row.reference]));
	const written = new Map<string, string>();
	for (const row of stack.receiver.received('/outcomes')) {
		const reference = referenceOf.get(String(row.row_number));
		if (reference !== undefined) written.set(reference, String(row.status));
	}
	return written;
}
