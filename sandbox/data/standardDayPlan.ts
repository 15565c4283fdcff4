/**
 * The day plan `npm run dev` and the examples' e2e tests apply (POST /__sandbox/day-plan with no payments): one
 * invoice per customer, each customer a virtual account of its own (0823300001 …, made under the pool), and every
 * outcome of matching and of the settlement check at least once.
 */
import type { DayPlan, PlanPayment } from '../state/dayPlan';

/** Where money meant for "Kelechi Nnadi" lands instead, and the unexpected collection of the day: seeded virtual accounts. */
const WRONG_ACCOUNT = '0823100003';
const UNEXPECTED_ACCOUNT = '0823100002';

const CUSTOMERS: Array<Omit<PlanPayment, 'account_number' | 'amount'> & { amount: string }> = [
	{ customer_name: 'Adaeze Nwankwo', amount: '150000.00', outcome: 'matched' },
	{ customer_name: 'Bola Adeyemi', amount: '82500.00', outcome: 'matched', settlement: 'a day late' },
	{ customer_name: 'Chiamaka Obi', amount: '45000.00', outcome: 'matched', settlement: 'missing' },
	{ customer_name: 'Danjuma Musa', amount: '120000.00', outcome: 'matched', settlement: 'another amount' },
	{ customer_name: 'Efe Okoro', amount: '30000.50', outcome: 'matched', settlement: 'twice' },
	{ customer_name: 'Funke Alade', amount: '60000.00', outcome: 'underpaid', paid: 5_500_000n },
	{ customer_name: 'Garba Sani', amount: '25000.00', outcome: 'overpaid', paid: 2_550_000n },
	{ customer_name: 'Halima Yusuf', amount: '90000.00', outcome: 'paid in parts' },
	{ customer_name: 'Ifeanyi Eze', amount: '18750.00', outcome: 'paid twice' },
	{ customer_name: 'Jumoke Bakare', amount: '40000.00', outcome: 'not paid yet' },
	{ customer_name: 'Kelechi Nnadi', amount: '35000.00', outcome: 'not paid yet', paid_to: WRONG_ACCOUNT },
	{ customer_name: 'Lami Danladi', amount: '22000.00', outcome: 'pending' },
	{ customer_name: 'Musa Ibrahim', amount: '15000.00', outcome: 'failed' },
];

const kobo = (amount: string) => BigInt(amount.replace('.', ''));

export function standardDayPlan(date: string): DayPlan {
	return {
		date,
		payments: CUSTOMERS.map((c, i) => ({ ...c, account_number: `08233${String(i + 1).padStart(5, '0')}`, amount: kobo(c.amount) })),
		unexpected: [{ account_number: UNEXPECTED_ACCOUNT, amount: 750_000n }],
		orphan_settlements: [{ account_number: '0823300001', amount: 500_000n }],
	};
}
