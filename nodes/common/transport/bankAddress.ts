import { scrubPatterns } from './scrub';

/**
 * The bank a Base URL names, to tell whether two credentials point at the same bank: scheme, host, port (a
 * scheme's default port as if left out) and path without its trailing slash, so `https://h:443/` is `https://h`.
 * User-info is no part of it: a gateway's password says nothing about which bank answers.
 */
export function bankAddressOf(baseUrl: string): string {
	const trimmed = baseUrl.trim();
	try {
		const url = new URL(trimmed);
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		// Not a URL (it will fail to sign in anyway): compared as written, without user-info or case.
		return scrubPatterns(trimmed).toLowerCase().replace(/\/+$/, '');
	}
}
