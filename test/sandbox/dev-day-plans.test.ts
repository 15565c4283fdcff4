/** `npm run dev`'s expected payments: the days its table holds are planned again in each run's fresh bank. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expectedPaymentRows, planDevDays } from '../../scripts/n8n/expectedPayments';
import { boot } from './helpers';

describe('planDevDays', () => {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'baas-dev-days-'));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('plans yesterday once for the table, and every later run\'s bank again, so the rows stay true', async () => {
		const first = await boot({ transactions: 300 });
		try {
			const planned = planDevDays(folder, first.sb);
			expect(planned.added.map((p) => p.date)).toEqual(['2025-12-31']);
			expect(expectedPaymentRows(planned.added[0])[0]).toEqual({
				account_number: '0823300001',
				customer_name: 'Adaeze Nwankwo',
				invoice_number: 'INV-20251231-01',
				amount: '150000.00',
				due_date: '2025-12-31',
				outcome: '',
				paid: '',
				note: '',
			});
		} finally {
			await first.sb.close();
		}

		// Not remembered until its rows are in the table: a run that failed before gets the day again.
		const second = await boot({ transactions: 300 });
		try {
			const again = planDevDays(folder, second.sb);
			expect(again.added.map((p) => p.date)).toEqual(['2025-12-31']);
			again.remember();
			const third = await boot({ transactions: 300 });
			try {
				expect(planDevDays(folder, third.sb).added).toEqual([]);
				// Planned again: Ifeanyi Eze's two payments of 18750.00 are in this bank too.
				const paidTwice = third.sb.bank.transactions.filter((t) => t.accountNumber === '0823300009' && t.status === 'success');
				expect(paidTwice.map((t) => t.amount)).toEqual([1_875_000n, 1_875_000n]);
			} finally {
				await third.sb.close();
			}
		} finally {
			await second.sb.close();
		}
	});
});
