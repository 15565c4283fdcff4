/**
 * The webhook secret per trigger and credential, as last read in this process. Reading it costs n8n a database
 * query, a decryption and (n8n 2.x) a fresh expression isolate per call, about 25 ms of CPU: a quarter of
 * n8n's work per delivery (bench/README.md, bench:n8n), and a cheap way to burn n8n's CPU with forged requests.
 * So (delivery.ts):
 * - a request without a well-formed signature header is refused without reading the credential;
 * - a delivery is checked against the secret read less than SECRET_TTL_MS ago;
 * - a delivery that secret does not accept reads the credential again only when the last read started
 *   REREAD_INTERVAL_MS ago or more; concurrent requests share one read (single flight).
 * Hence at most one read per REREAD_INTERVAL_MS per trigger whatever arrives, every refusal is decided against
 * a secret read less than REREAD_INTERVAL_MS before, a new secret is accepted at most REREAD_INTERVAL_MS after
 * it is saved, and a replaced or removed one stops being accepted within SECRET_TTL_MS. Memory only: one entry
 * per trigger, never logged.
 */
export const SECRET_TTL_MS = 10_000;
export const REREAD_INTERVAL_MS = 1_000;

interface CachedSecret {
	secret?: string;
	/** When the last read started. */
	readAt: number;
	reading?: Promise<string>;
}

export class RecentSecrets {
	/** By scope: workflow, node and credential ids. */
	private readonly byScope = new Map<string, CachedSecret>();

	/** The secret read for `scope` less than SECRET_TTL_MS ago, or undefined. */
	get(scope: string, now: number): string | undefined {
		const cached = this.byScope.get(scope);
		// A clock that stepped backwards makes the entry stale rather than fresh for longer.
		if (cached?.secret === undefined || now < cached.readAt || now - cached.readAt >= SECRET_TTL_MS) return undefined;
		return cached.secret;
	}

	/** Whether a read for `scope` started less than REREAD_INTERVAL_MS ago (a refusal needs no other). */
	readRecently(scope: string, now: number): boolean {
		const cached = this.byScope.get(scope);
		return cached !== undefined && now >= cached.readAt && now - cached.readAt < REREAD_INTERVAL_MS;
	}

	/**
	 * The secret as `read` gives it now; a read already under way for `scope` is shared, not repeated. A read
	 * that fails is not remembered.
	 */
	async read(scope: string, now: number, read: () => Promise<string>): Promise<string> {
		const cached = this.byScope.get(scope);
		if (cached?.reading !== undefined) return await cached.reading;
		const entry: CachedSecret = { secret: cached?.secret, readAt: cached?.readAt ?? now };
		const current = () => this.byScope.get(scope) === entry;
		entry.reading = read().then(
			(secret) => {
				if (current()) this.byScope.set(scope, { secret, readAt: now });
				return secret;
			},
			(error: unknown) => {
				if (current() && cached === undefined) this.byScope.delete(scope);
				else if (current()) this.byScope.set(scope, cached!);
				return Promise.reject(error as Error);
			},
		);
		this.byScope.set(scope, entry);
		return await entry.reading;
	}

	set(scope: string, secret: string, now: number): void {
		this.byScope.set(scope, { secret, readAt: now });
	}

	/** Forgets one scope's secret, or all of them. */
	forget(scope?: string): void {
		if (scope === undefined) this.byScope.clear();
		else this.byScope.delete(scope);
	}
}

export const recentSecrets = new RecentSecrets();
