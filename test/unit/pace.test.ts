import { InFlightWindow, retryAfterMs } from '../../nodes/common/transport/pace';

/** Sends `count` requests through the window and has the bank answer all of them. */
function answerRound(window: InFlightWindow, count = window.limit): number[] {
	const sent = Array.from({ length: count }, () => window.sending());
	for (let i = 0; i < count; i++) window.answered();
	return sent;
}

describe('the in-flight window of a paced read run', () => {
	test('starts at its start and doubles per round trip while the bank answers, up to the ceiling', () => {
		const window = new InFlightWindow(50, 5);
		const limits = [window.limit];
		for (let round = 0; round < 5; round++) {
			answerRound(window);
			limits.push(window.limit);
		}
		expect(limits).toEqual([5, 10, 20, 40, 50, 50]);
	});

	test('never starts above a lower ceiling (Concurrency 1 stays 1)', () => {
		const one = new InFlightWindow(1, 5);
		expect(one.limit).toBe(1);
		answerRound(one, 10);
		expect(one.limit).toBe(1);
	});

	test('halves once for all the refusals of one burst, not once per refusal', () => {
		const window = new InFlightWindow(50, 5);
		answerRound(window);
		answerRound(window);
		expect(window.limit).toBe(20);
		const burst = Array.from({ length: 20 }, () => window.sending());
		for (const sentAs of burst) window.busy(sentAs);
		expect(window.limit).toBe(10);
		// A request sent after the cut and refused again halves again.
		window.busy(window.sending());
		expect(window.limit).toBe(5);
	});

	test('after a cut it grows by about one per round trip, and never drops below one', () => {
		const window = new InFlightWindow(50, 5);
		answerRound(window);
		window.busy(window.sending());
		expect(window.limit).toBe(5);
		const limits = [];
		for (let round = 0; round < 4; round++) {
			answerRound(window);
			limits.push(window.limit);
		}
		expect(limits).toEqual([5, 6, 7, 8]);
		for (let i = 0; i < 10; i++) window.busy(window.sending());
		expect(window.limit).toBe(1);
	});

	test('a refusal with Retry-After holds new items until then and restarts from one, doubling back to half', () => {
		const window = new InFlightWindow(50, 5);
		answerRound(window);
		answerRound(window);
		answerRound(window);
		expect(window.limit).toBe(40);
		expect(window.pausedFor()).toBe(0);
		window.busy(window.sending(), 1000);
		expect(window.limit).toBe(1);
		expect(window.pausedFor()).toBeGreaterThan(900);
		expect(window.pausedFor()).toBeLessThanOrEqual(1000);
		const limits = [];
		for (let round = 0; round < 6; round++) {
			answerRound(window);
			limits.push(window.limit);
		}
		expect(limits).toEqual([2, 4, 8, 16, 20, 21]);
	});
});

describe('retryAfterMs: what a Retry-After header asks', () => {
	const now = Date.UTC(2026, 10, 25, 10, 0, 0);
	test('seconds', () => {
		expect(retryAfterMs('3', now)).toBe(3_000);
		expect(retryAfterMs(' 0 ', now)).toBe(0);
		expect(retryAfterMs('3600', now)).toBe(3_600_000);
	});
	test('an HTTP date: the time until then, none for a date past', () => {
		expect(retryAfterMs('Wed, 25 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
		expect(retryAfterMs('Wed, 25 Nov 2026 11:00:00 GMT', now)).toBe(3_600_000);
		expect(retryAfterMs('Wed, 25 Nov 2026 09:59:00 GMT', now)).toBe(0);
	});
	test('missing, empty or unreadable: nothing (the normal back-off applies)', () => {
		for (const header of [undefined, '', '   ', '-1', '1.5', '1e3', 'soon', 'Wed, 99 Nov 2026 xx GMT']) {
			expect({ header, ms: retryAfterMs(header, now) }).toEqual({ header, ms: undefined });
		}
	});
});
