import type { SeedInfo } from '../../sandbox';
import { csvSafe } from './payoutCode';

/** A payout as the examples read it (a data-table row, a line of the CSV): every value a string, amounts decimal strings. */
export interface PayoutRow {
	reference: string;
	account_number: string;
	bank_code: string;
	account_name: string;
	amount: string;
	narration: string;
}

/** What the sandbox makes of each row, so the e2e tests and examples/README.md can say what to expect. */
export type ExpectedStatus = 'successful' | 'failed' | 'refused' | 'not sent';

export interface PlannedPayout extends PayoutRow {
	expected: ExpectedStatus;
}

/**
 * The demo payouts, built from the sandbox's own accounts: three paid to other banks and one to a virtual account
 * of this bank, two whose name differs from the bank's (not sent), one to the closed account (the bank knows no
 * such account: not sent), one to the inactive account (the bank refuses the transfer: not made) and one to a
 * beneficiary whose bank fails it after accepting it. `prefix` keeps the references of the table and the file apart.
 */
export function plannedPayouts(seed: SeedInfo, prefix: string): PlannedPayout[] {
	const failing = seed.externalAccounts.filter((a) => seed.failingBeneficiaries.includes(a.account_number));
	const payable = seed.externalAccounts.filter((a) => !seed.failingBeneficiaries.includes(a.account_number));
	const own = (accountNumber: string) => {
		const account = seed.accounts.find((a) => a.account_number === accountNumber);
		if (!account) throw new Error(`the sandbox has no account ${accountNumber}`);
		return { account_number: account.account_number, bank_code: seed.ownBankCode, account_name: account.account_name };
	};
	const virtual = seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
	const inactive = seed.accounts.find((a) => a.status === 'inactive')!;
	const rows: Array<Omit<PlannedPayout, 'reference' | 'narration'>> = [
		{ ...payable[0], amount: '1500.00', expected: 'successful' },
		{ ...payable[1], amount: '250.50', expected: 'successful' },
		{ ...payable[2], amount: '12000.00', expected: 'successful' },
		{ ...own(virtual.account_number), amount: '75.25', expected: 'successful' },
		{ ...payable[3], account_name: `${payable[3].account_name}son`, amount: '3000.00', expected: 'not sent' },
		{ ...payable[4], account_name: 'Someone Else', amount: '500.00', expected: 'not sent' },
		{ ...own(seed.closedAccountNumber), amount: '100.00', expected: 'not sent' },
		{ ...own(inactive.account_number), amount: '200.00', expected: 'refused' },
		{ ...failing[0], amount: '700.00', expected: 'failed' },
	];
	return rows.map((row, i) => {
		const reference = `${prefix}-${String(i + 1).padStart(3, '0')}`;
		return { reference, ...row, narration: `Payout ${reference}` };
	});
}

/** The rows without what the test expects: what a data table or a CSV holds. */
export const asRow = ({ expected: _expected, ...row }: PlannedPayout): PayoutRow => row;

const CSV_COLUMNS: Array<keyof PayoutRow> = ['reference', 'account_number', 'bank_code', 'account_name', 'amount', 'narration'];

/**
 * The rows as a CSV file. No value needs quoting, and none is one a spreadsheet would run as a formula (the rule of
 * the examples' results CSV, ./payoutCode.ts); a value that would be either is refused rather than written wrong.
 */
export function payoutsCsv(rows: PayoutRow[]): string {
	const values = rows.flatMap((row) => CSV_COLUMNS.map((column) => row[column]));
	const bad = values.find((value) => /[",\r\n]/.test(value));
	if (bad !== undefined) throw new Error(`payoutsCsv writes no quoted values; "${bad}" would need them`);
	const formula = values.find((value) => csvSafe(value) !== value);
	if (formula !== undefined) throw new Error(`payoutsCsv writes no value a spreadsheet would run as a formula; "${formula}" is one`);
	return [CSV_COLUMNS.join(','), ...rows.map((row) => CSV_COLUMNS.map((column) => row[column]).join(','))].join('\n') + '\n';
}
