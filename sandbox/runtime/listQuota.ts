/**
 * A bank's quota on list requests: at most N fetch_* requests served per clock minute (all callers together);
 * beyond it HTTP 429 with Retry-After up to the next minute. A refused request does not count.
 */
const MINUTE_MS = 60_000;

/** The contract's list routes: every path whose last segment starts with fetch_. */
export const isListPath = (path: string) => /\/fetch_[a-z_]+$/.test(path);

export class ListQuota {
	private minute = -1;
	private served = 0;

	constructor(private readonly perMinute: () => number | null) {}

	/** Counts one list request at `nowMs`; returns the seconds to wait when it is over the quota, else undefined. */
	admit(nowMs: number): number | undefined {
		const limit = this.perMinute();
		if (limit === null) return undefined;
		const minute = Math.floor(nowMs / MINUTE_MS);
		if (minute !== this.minute) {
			this.minute = minute;
			this.served = 0;
		}
		if (this.served >= limit) return Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - nowMs) / 1000));
		this.served++;
		return undefined;
	}

	reset(): void {
		this.minute = -1;
		this.served = 0;
	}
}
