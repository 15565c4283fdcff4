/** Date windows of the list filters: `date` (one UTC day) wins over start_date/end_date, both inclusive. */
import { dayBounds } from '../data/time';

export interface DateFilter {
	date?: string | null;
	start_date?: string | null;
	end_date?: string | null;
}

/** [from, to) in epoch ms. */
export function dateWindow(f: DateFilter | null | undefined): [number, number] {
	if (!f) return [-Infinity, Infinity];
	if (f.date) return dayBounds(f.date);
	return [f.start_date ? dayBounds(f.start_date)[0] : -Infinity, f.end_date ? dayBounds(f.end_date)[1] : Infinity];
}

export function inWindow(ms: number, window: [number, number]): boolean {
	return ms >= window[0] && ms < window[1];
}
