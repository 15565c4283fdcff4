/**
 * Removes what must never leave the node from a text: the credential's secret values, bearer tokens (and
 * anything shaped like a JWT), and the user-info of URLs (`https://user:pass@host` → `https://host`).
 * Errors are built only from text that went through here, so a bank message that echoes the Authorization
 * header or a Base URL with a password cannot put either into outputs or logs.
 */
export const REDACTED = '[redacted]';

/** Credential fields whose values are secret (tokens included); the others (Base URL, Client ID, e-mail) are not. */
export const SECRET_FIELDS = ['clientSecret', 'password', 'webhookSecret', 'accessToken'] as const;

// Secrets shorter than this are not searched for: replacing "a" everywhere would destroy the message and
// protect nothing (the bank refuses such secrets anyway).
const MIN_SECRET_LENGTH = 4;

const PATTERNS: Array<[RegExp, string]> = [
	[/\bBearer\s+[^\s"',;]+/gi, `Bearer ${REDACTED}`],
	[/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, REDACTED],
	[/([a-z][\w+.-]*:\/\/)[^/\s@]*@/gi, '$1'],
];

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export type Scrubber = (text: string) => string;

/** A scrubber for the given secret values (plus the patterns every text is cleaned of). */
export function scrubberFor(secrets: Iterable<unknown>): Scrubber {
	const values = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))]
		// Longest first, so a secret that contains another is removed whole.
		.sort((a, b) => b.length - a.length);
	const known = values.length > 0 ? new RegExp(values.map(escapeRegExp).join('|'), 'g') : undefined;
	return (text: string) => {
		let clean = known ? text.replace(known, REDACTED) : text;
		for (const [pattern, replacement] of PATTERNS) clean = clean.replace(pattern, replacement);
		return clean;
	};
}

/** The secret values of a credential's data, for scrubberFor. */
export function secretValues(credentials: Record<string, unknown>): unknown[] {
	return SECRET_FIELDS.map((field) => credentials[field]);
}

/** Cleans text with the patterns only, for places that hold no credential (e.g. a URL shown in a message). */
export const scrubPatterns: Scrubber = scrubberFor([]);
