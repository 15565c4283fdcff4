/**
 * Tokens, lockout and the bearer check. Integration tokens carry typ 'api', dashboard tokens typ 'web';
 * each is refused on the other API's routes (41). Expired -> 42; anything else wrong -> 41.
 */
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { ApiError } from '../http/envelope';
import { signJwt, verifyJwt, type JwtClaims } from './jwt';
import type { Bank } from '../state/bank';
import type { Business, Member } from '../state/records';
import { iso } from '../data/time';

export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_DURATION_MS = 15 * 60_000;

export const API_AUTHORITIES = ['TRANSACTION_READ', 'TRANSACTION_WRITE', 'ACCOUNT_READ', 'ACCOUNT_WRITE', 'WEBHOOK_WRITE'];

export type Principal =
	| { typ: 'api'; business: Business; claims: JwtClaims }
	| { typ: 'web'; business: Business; member: Member; claims: JwtClaims };

interface Attempts {
	failures: number[];
	lockedUntil?: number;
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(a: string, b: string): boolean {
	const ha = createHash('sha256').update(a).digest();
	const hb = createHash('sha256').update(b).digest();
	return timingSafeEqual(ha, hb);
}

export class AuthService {
	private attempts = new Map<string, Attempts>();

	constructor(
		private readonly bank: () => Bank,
		private readonly key: Buffer,
		private readonly ttl: () => { api: number; web: number },
	) {}

	resetLockouts(): void {
		this.attempts.clear();
	}

	private checkLock(identity: string, now: number): void {
		const a = this.attempts.get(identity);
		if (a?.lockedUntil && a.lockedUntil > now) {
			const seconds = Math.ceil((a.lockedUntil - now) / 1000);
			throw new ApiError(
				'41',
				`Too many failed attempts: ${identity} is locked until ${iso(a.lockedUntil)} (${seconds} s from now)`,
				423,
				{ 'Retry-After': String(seconds) },
			);
		}
	}

	private fail(identity: string, now: number): void {
		const a = this.attempts.get(identity) ?? { failures: [] };
		a.failures = a.failures.filter((t) => now - t < LOCKOUT_WINDOW_MS);
		a.failures.push(now);
		if (a.failures.length >= LOCKOUT_THRESHOLD) {
			a.lockedUntil = now + LOCKOUT_DURATION_MS;
			a.failures = [];
		}
		this.attempts.set(identity, a);
	}

	private issue(claims: Omit<JwtClaims, 'iat' | 'exp' | 'jti'>, ttlSeconds: number, now: number) {
		// iat rounded up so exp - iat is exactly the lifetime and a token lives at least ttlSeconds (1 s in tests).
		const iat = Math.ceil(now / 1000);
		const exp = iat + ttlSeconds;
		return signJwt({ ...claims, iat, exp, jti: randomUUID() } as JwtClaims, this.key);
	}

	generateToken(clientId: string, clientSecret: string, now: number): { token: string; expires_in: number } {
		this.checkLock(clientId, now);
		const business = [...this.bank().businesses.values()].find((b) => b.clientId === clientId);
		if (!business?.clientSecret || !sameSecret(business.clientSecret, clientSecret)) {
			this.fail(clientId, now);
			throw new ApiError('41', 'Invalid client credentials');
		}
		this.attempts.delete(clientId);
		const ttl = this.ttl().api;
		return { token: this.issue({ sub: business.id, typ: 'api', client_id: clientId }, ttl, now), expires_in: ttl };
	}

	login(emailInput: string, password: string, now: number) {
		const identity = emailInput.trim().toLowerCase();
		this.checkLock(identity, now);
		const member = [...this.bank().members.values()].find((m) => m.email.toLowerCase() === identity);
		if (!member?.password || !member.isActive || !sameSecret(member.password, password)) {
			this.fail(identity, now);
			throw new ApiError('41', 'Invalid email or password');
		}
		this.attempts.delete(identity);
		member.lastLoginMs = now;
		const role = this.bank().roles.get(member.roleId)?.name ?? '';
		const ttl = this.ttl().web;
		const token = this.issue({ sub: member.id, typ: 'web', email: member.email, role, bid: member.businessId }, ttl, now);
		return { token, expires_in: ttl, user: { id: member.id, email: member.email, role } };
	}

	/** Verifies a token for routes of API `typ`. */
	verify(token: string | undefined, typ: 'api' | 'web', now: number): Principal {
		if (!token) throw new ApiError('41', 'Missing bearer token: send Authorization: Bearer <token>');
		const claims = verifyJwt(token, this.key);
		if (!claims) throw new ApiError('41', 'Invalid token');
		if (claims.typ !== typ) {
			throw new ApiError(
				'41',
				claims.typ === 'api'
					? 'Invalid token for this route: an integration (API client) token cannot call a /web/ endpoint'
					: 'Invalid token for this route: a dashboard token cannot call an /api/ endpoint',
			);
		}
		if (now / 1000 >= claims.exp) throw new ApiError('42', `Token expired at ${iso(claims.exp * 1000)}`);
		const bank = this.bank();
		if (claims.typ === 'api') {
			const business = bank.businesses.get(claims.sub);
			if (!business || business.clientId !== claims.client_id) throw new ApiError('41', 'Invalid token: unknown API client');
			return { typ: 'api', business, claims };
		}
		const member = bank.members.get(claims.sub);
		const business = member && bank.businesses.get(member.businessId);
		if (!member || !business || !member.isActive) throw new ApiError('41', 'Invalid token: unknown or inactive user');
		return { typ: 'web', business, member, claims };
	}
}
