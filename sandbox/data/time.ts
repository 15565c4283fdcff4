/** Timestamp formats of the contract. All dates are UTC. */

/** ISO 8601 with zone, e.g. '2026-11-23T14:00:00.000Z'. */
export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** validate_token's format: no zone suffix, no fraction, e.g. '2026-11-23T14:00:00'. */
export function isoNoZone(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19);
}

/** 'YYYY-MM-DD' -> [start of that day, start of the next day) in ms. */
export function dayBounds(date: string): [number, number] {
	const start = Date.parse(`${date}T00:00:00.000Z`);
	return [start, start + 86_400_000];
}

/** True for a real calendar date in YYYY-MM-DD form (2025-02-30 is not). */
export function isCalendarDate(text: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
	const ms = Date.parse(`${text}T00:00:00.000Z`);
	return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** ISO 8601 date-time with a time part; zone optional (read as UTC when absent). */
export function parseDateTime(text: string): number | undefined {
	if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) return undefined;
	const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text);
	const ms = Date.parse(hasZone ? text : `${text}Z`);
	return Number.isNaN(ms) ? undefined : ms;
}
