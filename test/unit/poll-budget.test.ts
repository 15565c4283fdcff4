import { Budget, NO_REQUEST_LEFT } from '../../nodes/BaasPollTrigger/budget';

describe('Poll Trigger: the requests a poll may still make (budget.ts)', () => {
	it('answers NO_REQUEST_LEFT past Requests per Poll, and keeps what is reserved for later parts, without throwing', () => {
		const budget = new Budget(3);
		budget.reserved = 1;
		expect(typeof budget.take()).toBe('number');
		expect(typeof budget.take()).toBe('number');
		// The third is reserved for a later part of the poll.
		expect(budget.take()).toBe(NO_REQUEST_LEFT);
		budget.reserved = 0;
		expect(typeof budget.take()).toBe('number');
		expect(budget.take()).toBe(NO_REQUEST_LEFT);
		expect(budget.spent).toBe(3);
	});

	it('answers NO_REQUEST_LEFT once the poll may start no request in its time, and gives each request only the time left', () => {
		const realNow = Date.now;
		let now = 1_000_000;
		Date.now = () => now;
		try {
			const budget = new Budget(10, { startBeforeMs: now + 30_000, endBeforeMs: now + 40_000 });
			expect(budget.take()).toBeLessThanOrEqual(40_000);
			now += 35_000;
			expect(budget.take()).toBe(NO_REQUEST_LEFT);
			// A refused request is not counted.
			expect(budget.spent).toBe(1);
		} finally {
			Date.now = realNow;
		}
	});
});
