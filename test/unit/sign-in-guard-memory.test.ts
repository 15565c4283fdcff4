/**
 * Issue 34, item 7: the sign-in guard forgets. A record whose refusals and lock have aged out and that no
 * sign-in waits on is dropped; the guard never holds more than MAX_IDENTITIES records, and what it keeps of a
 * bank's refusal is short (600 refused client IDs held +26 MB, still there 16 minutes later).
 */
import type { SignInCandidate } from '../../nodes/common/transport/signInGuard';
import { clearSignInGuard, guardedSignIn, MAX_IDENTITIES, SIGN_IN_LIMITS, signInBlock, signInGuardSize } from '../../nodes/common/transport/signInGuard';
import { SignInError } from '../../nodes/common/transport/tokenExchange';

const MINUTE = 60_000;
let nowMs = Date.UTC(2026, 10, 28, 9, 0);
beforeEach(() => {
	clearSignInGuard();
	jest.spyOn(Date, 'now').mockImplementation(() => nowMs);
});
afterEach(() => jest.restoreAllMocks());

const candidate = (id: string, secret = 'wrong'): SignInCandidate => ({
	identityKey: `["api","${id}"]`,
	credentialKey: `${id}/${secret}`,
	who: `client ID ${id}`,
	credentialName: `BaaS API ${id}`,
	secretFields: 'Client Secret (or Client ID)',
});
const refusal = (reason = 'Invalid client credentials [41]') =>
	new SignInError(`The bank refused to sign in: ${reason}.`, true, '41', 401, { bankReason: reason });
const refuse = (id: string, reason?: string) => guardedSignIn(candidate(id), async () => refusal(reason));
const signIn = (id: string) => guardedSignIn(candidate(id, 'right'), async () => ({ token: 'eyJa.b.c' }));

describe('the sign-in guard forgets what aged out (issue 34, item 7)', () => {
	test(`600 refused client IDs: never more than ${MAX_IDENTITIES} records, the latest still recalled; after the window, none`, async () => {
		let largest = 0;
		for (let i = 0; i < 600; i++) {
			await refuse(`client-${i}`);
			largest = Math.max(largest, signInGuardSize());
			nowMs += 1_000;
		}
		expect(largest).toBe(MAX_IDENTITIES);
		// The most recent refusals are the ones kept: the last client ID's wrong secret is still not tried again.
		expect(signInBlock(candidate('client-599'))?.message).toMatch(/not tried again until/);

		nowMs += SIGN_IN_LIMITS.pauseMs;
		expect(signInBlock(candidate('someone-else'))).toBeUndefined();
		expect(signInGuardSize()).toBe(0);
	});

	test('a refusal inside its window is kept through sweeps; it goes once the window is over', async () => {
		await refuse('kept');
		for (let minute = 1; minute < 15; minute++) {
			nowMs += MINUTE;
			expect(signInBlock(candidate('other'))).toBeUndefined();
			expect(signInGuardSize()).toBe(1);
			expect(signInBlock(candidate('kept'))?.message).toMatch(/not tried again until/);
		}
		nowMs += MINUTE;
		expect(signInBlock(candidate('other'))).toBeUndefined();
		expect(signInGuardSize()).toBe(0);
	});

	test('a sign-in under way keeps its record through a sweep; a successful sign-in leaves none', async () => {
		await refuse('busy');
		let answer!: (outcome: { token: string }) => void;
		const pending = guardedSignIn(candidate('busy', 'right'), () => new Promise<{ token: string }>((resolve) => (answer = resolve)));
		nowMs += SIGN_IN_LIMITS.pauseMs + MINUTE;
		signInBlock(candidate('other'));
		expect(signInGuardSize()).toBe(1);
		await Promise.resolve();
		answer({ token: 'eyJa.b.c' });
		expect(await pending).toEqual({ token: 'eyJa.b.c' });
		expect(signInGuardSize()).toBe(0);
		await signIn('fresh');
		expect(signInGuardSize()).toBe(0);
	});

	test('a 1 MB refusal is kept, and recalled, in at most a few hundred characters', async () => {
		const first = await refuse('long', `Invalid client credentials ${'x'.repeat(1e6)}`);
		const recalled = signInBlock(candidate('long'));
		for (const error of [first as SignInError, recalled!]) {
			expect(error.message.length).toBeLessThan(1_000);
			expect(error.message).toMatch(/^The bank refused to sign in: Invalid client credentials x+… \(credential "BaaS API long"/);
		}
	});
});
