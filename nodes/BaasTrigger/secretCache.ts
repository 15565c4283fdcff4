/**
 * The webhook secret per trigger and credential, as last read in this process. Reading it costs n8n a database
 * query, a decryption and (n8n 2.x) a fresh expression isolate per call: a quarter of n8n's CPU time per
 * delivery (bench/README.md, bench:n8n). So a delivery is first checked against the secret read less than
 * SECRET_TTL_MS ago; only a delivery that fails that check reads the credential again. Every refusal is
 * therefore decided on the current credential (a new secret works at once); a replaced or removed secret stops
 * being accepted within the TTL. Memory only: one entry per trigger, never logged.
 */
export const SECRET_TTL_MS = 10_000;

interface CachedSecret {
	secret: string;
	readAt: number;
}

export class RecentSecrets {
	/** By scope: workflow, node and credential ids. */
	private readonly byScope = new Map<string, CachedSecret>();

	/** The secret read for `scope` less than SECRET_TTL_MS ago, or undefined. */
	get(scope: string, now: number): string | undefined {
		const cached = this.byScope.get(scope);
		// A clock that stepped backwards makes the entry stale rather than fresh for longer.
		if (cached === undefined || now < cached.readAt || now - cached.readAt >= SECRET_TTL_MS) return undefined;
		return cached.secret;
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
