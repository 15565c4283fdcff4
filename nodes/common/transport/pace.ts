/**
 * How many reads of one run may be in flight. The contract publishes no rate limit, so the node finds the
 * bank's pace the way TCP finds a link's: it starts small, adds one item in flight for every answer (doubling
 * per round trip) until the bank first says it is busy, then from half of that adds about one per round trip.
 * "Busy" is HTTP 429 / code 29, HTTP 503 / code 80, a 5xx or a dropped connection; a run is cut at most once
 * per round of requests, so the refusals of one burst cut it once. A cut halves, unless the bank said when to
 * come back (Retry-After): then, as TCP after a timeout, the run holds every new item until then and restarts
 * from one in flight (halving alone kept refusing about 20 reads a second on a bank allowing 40, test/engine/read-pace.test.ts).
 */
export class InFlightWindow {
	private size: number;
	private threshold: number;
	private sent = 0;
	private cutWhenSent = 0;
	private resumeAt = 0;

	/** `ceiling`: the most items in flight (the node's Concurrency option); `start`: where the run begins. */
	constructor(
		private readonly ceiling: number,
		start: number,
	) {
		this.size = Math.min(start, ceiling);
		this.threshold = ceiling;
	}

	/** Items that may be in flight now (at least 1). */
	get limit(): number {
		return Math.max(1, Math.floor(this.size));
	}

	/** Call before sending a request; pass the number returned to busy() if the bank refuses it. */
	sending(): number {
		return ++this.sent;
	}

	/** The bank answered (success or a refusal about the request itself): it keeps up, so allow a little more. */
	answered(): void {
		this.size = Math.min(this.ceiling, this.size + (this.size < this.threshold ? 1 : 1 / this.size));
	}

	/** Milliseconds until new items may start (0: now). */
	pausedFor(): number {
		return Math.max(0, this.resumeAt - Date.now());
	}

	/**
	 * The bank said it is busy about request `sentAs` (and maybe when to come back): cut, unless a cut after it
	 * was sent has already done so.
	 */
	busy(sentAs: number, retryAfterMs?: number): void {
		if (retryAfterMs) this.resumeAt = Math.max(this.resumeAt, Date.now() + retryAfterMs);
		if (sentAs <= this.cutWhenSent) return;
		this.threshold = Math.max(1, this.size / 2);
		this.size = retryAfterMs ? 1 : this.threshold;
		this.cutWhenSent = this.sent;
	}
}

const windows = new WeakMap<object, InFlightWindow>();

/** Paces the reads made through `context` (one node run) by `window`, until the run ends; returns the window. */
export function paceRequestsOf(context: object, window: InFlightWindow): InFlightWindow {
	windows.set(context, window);
	return window;
}

/** The window pacing `context`'s run, if the run is paced (reads of the action node). */
export function windowOf(context: object): InFlightWindow | undefined {
	return windows.get(context);
}

/**
 * Milliseconds a `Retry-After` header asks to wait (RFC 9110: a number of seconds, or an HTTP date), or
 * undefined when it says nothing usable (missing, empty, negative, a fraction, text): the caller then backs off
 * as after any refusal. A date in the past asks for no wait.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
	const value = header?.trim() ?? '';
	if (/^\d+$/.test(value)) return Number(value) * 1000;
	// Only a date has letters in it (a weekday, a month): Date.parse would read bare numbers as years.
	if (!/[a-z]/i.test(value)) return undefined;
	const at = Date.parse(value);
	return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
