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

// Each pattern tries a run of characters once, so cleaning takes time in proportion to the text (a 1 MB text in
// milliseconds; bench/scrub.ts). The former forms tried every letter of a run again up to the run's end: 40 KB
// of letters took over a second, on the event loop.
const PATTERNS: Array<[RegExp, string | ((match: string) => string)]> = [
	[/\bBearer\s+[^\s"',;]+/gi, `Bearer ${REDACTED}`],
	// A JWT: three [\w-] runs joined by dots. A run without them is matched and kept, so no later "eyJ" in it is
	// tried again: it would end where the run ends and fail alike.
	[/\beyJ[\w-]*(?:\.[\w-]+\.[\w-]*)?/g, (match) => (match.includes('.') ? REDACTED : match)],
	// User-info after a scheme, up to the last "@" before the path (a password may hold a raw "@", as URL parsers
	// accept): tried only where a run of scheme characters starts (the scheme is from its first letter); another
	// start in the same run would reach the same "://" or none.
	[/(?<![\w+.-])([\d_+.-]*)([a-z][\w+.-]*:\/\/)[^/\s]*@/gi, '$1$2'],
];

export type Scrubber = (text: string) => string;

/** A secret and, for each length of its beginning, the longest proper border (Knuth-Morris-Pratt). */
interface Needle {
	text: string;
	border: Int32Array;
}

function needleOf(text: string): Needle {
	const border = new Int32Array(text.length);
	for (let i = 1, k = 0; i < text.length; i++) {
		while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = border[k - 1];
		if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
		border[i] = k;
	}
	return { text, border };
}

/**
 * Replaces every secret, leftmost first and the longest where several start at one place (as an alternation of
 * them, longest first, did), in time linear in the text however it repeats a secret's beginning.
 */
function withoutSecrets(text: string, needles: Needle[]): string {
	let longest: Int32Array | undefined;
	for (const { text: secret, border } of needles) {
		for (let i = 0, k = 0; i < text.length; i++) {
			const c = text.charCodeAt(i);
			while (k > 0 && c !== secret.charCodeAt(k)) k = border[k - 1];
			if (c === secret.charCodeAt(k)) k++;
			if (k === secret.length) {
				longest ??= new Int32Array(text.length);
				const start = i - k + 1;
				if (longest[start] < k) longest[start] = k;
				k = border[k - 1];
			}
		}
	}
	if (!longest) return text;
	const parts: string[] = [];
	let copied = 0;
	for (let i = 0; i < text.length; i++) {
		if (longest[i] === 0) continue;
		parts.push(text.slice(copied, i), REDACTED);
		copied = i + longest[i];
		i = copied - 1;
	}
	parts.push(text.slice(copied));
	return parts.join('');
}

/** A scrubber for the given secret values (plus the patterns every text is cleaned of). */
export function scrubberFor(secrets: Iterable<unknown>): Scrubber {
	const needles = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))].map(needleOf);
	return (text: string) => {
		let clean = needles.length > 0 ? withoutSecrets(text, needles) : text;
		for (const [pattern, replacement] of PATTERNS) {
			clean = typeof replacement === 'string' ? clean.replace(pattern, replacement) : clean.replace(pattern, replacement);
		}
		return clean;
	};
}

/** The secret values of a credential's data, for scrubberFor. */
export function secretValues(credentials: Record<string, unknown>): unknown[] {
	return SECRET_FIELDS.map((field) => credentials[field]);
}

/** Cleans text with the patterns only, for places that hold no credential (e.g. a URL shown in a message). */
export const scrubPatterns: Scrubber = scrubberFor([]);
