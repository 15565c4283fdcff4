/** HS256 JWTs with node:crypto only (no dependency). */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
	sub: string;
	typ: 'api' | 'web';
	iat: number;
	exp: number;
	jti: string;
	[key: string]: unknown;
}

function b64url(input: string | Buffer): string {
	return Buffer.from(input).toString('base64url');
}

export function signJwt(claims: JwtClaims, key: Buffer): string {
	const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
	const body = b64url(JSON.stringify(claims));
	const sig = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
	return `${head}.${body}.${sig}`;
}

/** Returns the claims when the signature and shape are right; expiry is checked by the caller (42 vs 41). */
export function verifyJwt(token: string, key: Buffer): JwtClaims | undefined {
	const parts = token.split('.');
	if (parts.length !== 3) return undefined;
	const [head, body, sig] = parts;
	const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
	const given = Buffer.from(sig, 'base64url');
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
	try {
		const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
		if (header.alg !== 'HS256') return undefined;
		const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<JwtClaims>;
		if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') {
			return undefined;
		}
		if (claims.typ !== 'api' && claims.typ !== 'web') return undefined;
		return claims as JwtClaims;
	} catch {
		// A token whose parts are not JSON is simply not a token of ours.
		return undefined;
	}
}
