/**
 * The demo payouts `npm run dev` puts into the "BaaS payouts" data table (and examples/payouts-sample.csv):
 * each row meets the bank the way its expected outcome says, before any n8n is involved.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { asRow, payoutsCsv, plannedPayouts } from '../../scripts/n8n/payoutRows';
import { Client, expectError, expectOk } from './helpers';

let sb: SandboxHandle;
let c: Client;

// The seed and history end npm run dev uses (the defaults), since the sample CSV is made for that bank.
beforeAll(async () => {
	sb = await startSandbox({ port: 0, transactions: 10 });
	c = new Client(sb);
});
afterAll(() => sb.close());

const nameEnquiry = (row: { account_number: string; bank_code: string }) =>
	c.web<{ account_name: string }>('transaction/transfer/web/name_enquiry', {
		beneficiary_account_number: row.account_number,
		bank_code: row.bank_code,
		source_account_number: sb.seed.poolAccountNumber,
	});

describe('the example payouts', () => {
	it('examples/payouts-sample.csv holds the planned rows for the default sandbox', () => {
		const sample = readFileSync(path.join(__dirname, '../../examples/payouts-sample.csv'), 'utf8');
		expect(sample).toBe(payoutsCsv(plannedPayouts(sb.seed, 'CSV').map(asRow)));
	});

	it('cover each outcome, with references unique to their prefix', () => {
		const rows = plannedPayouts(sb.seed, 'TBL');
		expect(new Set(rows.map((r) => r.reference)).size).toBe(rows.length);
		expect(rows.every((r) => r.reference.startsWith('TBL-') && /^\d+\.\d{2}$/.test(r.amount))).toBe(true);
		expect(new Set(rows.map((r) => r.expected))).toEqual(new Set(['successful', 'failed', 'refused', 'not sent']));
	});

	it('rows to be paid carry the name the bank gives; rows not to be sent a different name or an account it does not know', async () => {
		for (const row of plannedPayouts(sb.seed, 'TBL')) {
			const answer = await nameEnquiry(row);
			if (row.account_number === sb.seed.closedAccountNumber) {
				expectError(answer, 200, '83', /not found/);
				continue;
			}
			expectOk(answer);
			const same = answer.body.data.account_name === row.account_name;
			expect({ reference: row.reference, same }).toEqual({ reference: row.reference, same: row.expected !== 'not sent' });
		}
	});

	it('the bank refuses the transfer of the row expected "refused" (its account is inactive)', async () => {
		const row = plannedPayouts(sb.seed, 'TBL').find((r) => r.expected === 'refused')!;
		const answer = await c.api('transaction/transfer/api/funds_transfer', {
			reference_number: row.reference,
			transfer_type: 'intra',
			amount: row.amount,
			source_account_number: sb.seed.poolAccountNumber,
			beneficiary_account_number: row.account_number,
			narration: row.narration,
		});
		expectError(answer, 200, '83', /inactive/);
	});
});
