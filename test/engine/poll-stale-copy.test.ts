/**
 * Issue 26, case 9: two credentials with the same Base URL and client ID, one of them a stale copy (an old
 * secret). The pause after a refused sign-in belongs to the credential the bank refused (its identity and
 * secret), so the stale copy cannot starve the correct one, and its error names the stale credential.
 * One-minute polls for an hour on a fake clock; tokens live 10 minutes, so the correct credential has to sign in
 * again several times within the hour while the stale one keeps being refused.
 */
import { clearSignInGuard } from '../../nodes/common/transport/session';
import { collect } from './harness/bankActivity';
import { storeApiCredential, useBankFixture } from './harness/bankFixture';
import { fakeClock, PollingWorkflow, referencesOf } from './harness/pollWorkflow';
import { reportFigures } from './reliability/scale';

const fx = useBankFixture({ transactions: 0, tokenTtlSeconds: 600 }, () => {
	fakeClock.stop();
	clearSignInGuard();
});

const MINUTE = 60_000;

test('a stale copy of the credential polled first every minute for an hour: the correct one succeeds on 60 of 60 polls', async () => {
	fakeClock.start();
	storeApiCredential(fx, 'old-copy', 'the-secret-before-rotation');
	storeApiCredential(fx, 'current', fx.bank.seed.clientSecret);
	const parameters = { authentication: 'apiClient', events: ['COLLECTION_SUCCESS'] };
	const stale = new PollingWorkflow(fx.credentials, { ...parameters }, { baasApi: 'old-copy' }, 'wf-stale', { nodeName: 'Stale Poll' });
	const correct = new PollingWorkflow(fx.credentials, { ...parameters }, { baasApi: 'current' }, 'wf-current', { nodeName: 'Current Poll' });

	let correctOk = 0;
	const emitted: string[] = [];
	const made: string[] = [];
	const staleErrors = new Set<string>();
	const correctErrors: string[] = [];
	for (let minute = 0; minute < 60; minute++) {
		if (minute > 0 && minute % 5 === 0) made.push(collect(fx.bank));
		const s = await stale.poll();
		if (s.error) staleErrors.add(s.error.message.replace(/\d\d:\d\d/g, 'hh:mm'));
		fakeClock.advance(1_000);
		const c = await correct.poll();
		if (c.error) correctErrors.push(c.error.message);
		else correctOk++;
		emitted.push(...referencesOf(c.json));
		fakeClock.advance(MINUTE - 1_000);
	}
	const refusedAtBank = fx.bank.requests().filter((r) => r.path.endsWith('/generate_token') && r.response_code === '41').length;
	const lockouts = fx.bank.requests().filter((r) => r.status === 423).length;
	reportFigures('poll stale copy (issue 26 case 9)', {
		correct_polls_ok: `${correctOk}/60`,
		stale_refusals_at_bank: refusedAtBank,
		token_requests: fx.bank.requests().filter((r) => r.path.endsWith('/generate_token')).length,
		lockouts,
	});
	expect(correctErrors).toEqual([]);
	expect(correctOk).toBe(60);
	expect(emitted).toEqual(made);
	expect(lockouts).toBe(0);
	// The stale copy asks the bank at most once per pause (15 minutes): 4 times in the hour.
	expect(refusedAtBank).toBeLessThanOrEqual(4);
	// Its error names the stale credential and its client ID, never the secret.
	expect(staleErrors.size).toBeGreaterThan(0);
	for (const message of staleErrors) {
		expect(message).toContain('"baasApi old-copy"');
		expect(message).toContain(`client ID ${fx.bank.seed.clientId}`);
		expect(message).not.toContain('"baasApi current"');
		expect(message).not.toContain('the-secret-before-rotation');
	}
});
