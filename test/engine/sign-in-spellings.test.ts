/**
 * Issue 34, item 6: the bank locks a client ID (or dashboard e-mail), not a Base URL. Old secrets saved against
 * two addresses of one bank (its own host and another name for it, or `:443` spelled out) must share one
 * budget of refusals in the sign-in guard, or together they lock the client ID (the sandbox: 5 refusals in 15
 * minutes), and the correct credential then fails "locked" for 15 minutes.
 */
import { forgetHeldTokens, SIGN_IN_LIMITS } from '../../nodes/common/transport/session';
import { useBankFixture } from './harness/bankFixture';
import { testCredential } from './harness/credentialTest';
import { fakeClock } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, (started) => {
	fakeClock.stop();
	forgetHeldTokens();
	started.bank.reset();
});

const refused = () => fx.bank.requests().filter((r) => /\/generate_token$|\/auth\/web\/login$/.test(r.path) && r.response_code === '41').length;
const lockouts = () => fx.bank.requests().filter((r) => r.status === 423).length;
/** The sandbox's own address and another name for the same bank (same port, trailing slash). */
const spellings = () => [fx.bank.url, `http://localhost:${new URL(fx.bank.url).port}/`];

function saveApi(id: string, baseUrl: string, clientSecret: string) {
	fx.credentials.add(id, 'baasApi', { ...fx.credentials.stored('api-1')!, baseUrl, clientSecret });
}

describe('one client ID saved against two spellings of the bank (issue 34, item 6)', () => {
	test('2 + 3 old secrets, each Tested once: at most 3 refusals reach the bank, no lock; the correct credential says until when, then signs in', async () => {
		fakeClock.start();
		const [own, other] = spellings();
		const results = [];
		for (const [i, baseUrl] of [own, own, other, other, other].entries()) {
			saveApi(`old-${i}`, baseUrl, `old-Secret-${i}`);
			results.push(await testCredential(fx.credentials, 'baasApi', `old-${i}`));
		}
		expect(results.map((r) => r.status)).toEqual(['Error', 'Error', 'Error', 'Error', 'Error']);
		expect(refused()).toBe(SIGN_IN_LIMITS.refusalsPerIdentity);
		expect(lockouts()).toBe(0);

		// The correct secret at either address: the client ID has used its refusals, so nothing is sent and the
		// Test says until when (it would have been the 6th attempt, answered "locked" for 15 minutes).
		saveApi('right-own', own, fx.bank.seed.clientSecret);
		saveApi('right-other', other, fx.bank.seed.clientSecret);
		for (const id of ['right-own', 'right-other']) {
			const waiting = await testCredential(fx.credentials, 'baasApi', id);
			expect(waiting.status).toBe('Error');
			expect(waiting.message).toMatch(new RegExp(`No sign-in for client ID ${fx.bank.seed.clientId} until \\d\\d:\\d\\d UTC`));
			expect(waiting.message).not.toMatch(/locked/);
		}
		expect(refused()).toBe(SIGN_IN_LIMITS.refusalsPerIdentity);
		expect(lockouts()).toBe(0);

		fakeClock.advance(SIGN_IN_LIMITS.pauseMs);
		expect(await testCredential(fx.credentials, 'baasApi', 'right-own')).toMatchObject({ status: 'OK' });
		expect(await testCredential(fx.credentials, 'baasApi', 'right-other')).toMatchObject({ status: 'OK' });
		expect(lockouts()).toBe(0);
	});

	test('one wrong secret saved at two spellings of one address costs one refusal; at another address it is tried once more, within the budget', async () => {
		const [own, other] = spellings();
		const port = new URL(fx.bank.url).port;
		saveApi('copy-own', own, 'same-old-Secret');
		saveApi('copy-respelled', `HTTP://127.0.0.1:${port}/`, 'same-old-Secret');
		saveApi('copy-other', other, 'same-old-Secret');
		expect((await testCredential(fx.credentials, 'baasApi', 'copy-own')).message).toMatch(/Invalid client credentials \[41\]/);
		const recalled = await testCredential(fx.credentials, 'baasApi', 'copy-respelled');
		expect(recalled.message).toMatch(/The bank refused to sign in: Invalid client credentials \[41\] .* It is not tried again until \d\d:\d\d UTC/);
		expect(refused()).toBe(1);
		// Another host may be another bank (a Base URL corrected from the wrong one): tried, and counted for the client ID.
		expect((await testCredential(fx.credentials, 'baasApi', 'copy-other')).message).toMatch(/Invalid client credentials \[41\]/);
		expect(refused()).toBe(2);
		expect(lockouts()).toBe(0);
	});

	test('a dashboard e-mail in other capitals at the other address shares the budget: 5 wrong passwords, 3 refusals, no lock', async () => {
		const [own, other] = spellings();
		const email = fx.bank.seed.dashboardEmail;
		for (let i = 0; i < 5; i++) {
			const spelled = i % 2 === 0 ? { baseUrl: own, email } : { baseUrl: other, email: email.toUpperCase() };
			fx.credentials.add(`web-old-${i}`, 'baasDashboardApi', { ...fx.credentials.stored('web-1')!, ...spelled, password: `old-Pass-${i}` });
			expect((await testCredential(fx.credentials, 'baasDashboardApi', `web-old-${i}`)).status).toBe('Error');
		}
		expect(refused()).toBe(SIGN_IN_LIMITS.refusalsPerIdentity);
		expect(lockouts()).toBe(0);
	});
});
