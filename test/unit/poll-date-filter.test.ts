/**
 * The Poll Trigger's date filter (filters.ts, sinceFilter). The contract names `start_date` (YYYY-MM-DD) but not the
 * time zone whose day it means; a bank counting days in its own zone must still list the floor and everything after
 * it, or records written after the floor would never be read.
 */
import { sinceFilter } from '../../nodes/BaasPollTrigger/filters';

const HOUR = 3_600_000;

/** When the day `date` starts for a bank whose clock runs `offsetHours` ahead of UTC (UTC-5: -5). */
const dayStartsAt = (date: string, offsetHours: number) => Date.parse(`${date}T00:00:00Z`) - offsetHours * HOUR;

describe('Poll Trigger: the date filter (filters.ts, sinceFilter)', () => {
	it('starts no later than the floor for a bank counting days in any time zone, UTC-12 to UTC+14', () => {
		const misses: string[] = [];
		// Floors every 20 minutes across two UTC days.
		for (let floorMs = Date.UTC(2026, 2, 1); floorMs < Date.UTC(2026, 2, 3); floorMs += 20 * 60_000) {
			const date = sinceFilter(floorMs).start_date as string;
			for (let offset = -12; offset <= 14; offset++) {
				if (dayStartsAt(date, offset) > floorMs) misses.push(`${new Date(floorMs).toISOString()} at UTC${offset >= 0 ? '+' : ''}${offset}`);
			}
		}
		// From the floor's own UTC day instead: 72 of the 144 floors are missed by a bank west of UTC (30 at UTC-5).
		expect(misses).toEqual([]);
	});

	it('filters nothing without a floor', () => {
		expect(sinceFilter(null)).toEqual({});
	});
});
