/**
 * Issue 20, cases 1 and 6: a refused sign-in pauses the refused credential for every trigger of the process
 * (the sign-in guard), and the activation recovers on its own. One PollContext serves every scheduled poll of an activation, as in n8n's in-memory scheduler.
 */
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { collectLogs, fakeClock, PollingWorkflow, referencesOf } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
});
collectLogs();

const MINUTE = 60_000;

function storeCredential(id: string, clientSecret: string) {
	fx.credentials.add(id, 'baasApi', {
		baseUrl: fx.bank.url,
		clientId: fx.bank.seed.clientId,
		clientSecret,
		webhookSecret: '',
		accessToken: '',
	});
}

let seq = 0;
const trigger = (credentialId: string, name?: string) =>
	new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ['COLLECTION_SUCCESS'] }, { baasApi: credentialId }, `wf-recovery-${++seq}`, {
		nodeName: name,
	});

describe('Poll Trigger: recovery from a refused sign-in (case 1)', () => {
	it('a secret mistyped, then fixed in the credential: the next scheduled poll signs in with the fix, no re-activation', async () => {
		fakeClock.start();
		storeCredential('typo', 'mistyped-secret');
		const wf = trigger('typo');
		const tokensBefore = fx.count('/generate_token');

		const refused = await wf.poll();
		expect(refused.error?.message).toMatch(/The bank refused to sign in/);
		fakeClock.advance(MINUTE);
		const paused = await wf.poll();
		expect(paused.error?.message).toMatch(/It is not tried again until \d\d:\d\d UTC/);
		expect(fx.count('/generate_token') - tokensBefore).toBe(1);

		// Fixed 5 minutes later, in the credential only: the pause belonged to the refused secret, not to the fix.
		fakeClock.advance(5 * MINUTE);
		storeCredential('typo', fx.bank.seed.clientSecret);
		const resumed = await wf.poll();
		expect(resumed.error).toBeUndefined();
		expect(fx.count('/generate_token') - tokensBefore).toBe(2);
		const reference = collect(fx.bank);
		fakeClock.advance(MINUTE);
		const next = await wf.poll();
		expect(next.error).toBeUndefined();
		expect(referencesOf(next.json)).toEqual([reference]);
	});
});

describe('Poll Trigger: one pause per refused credential, shared by every trigger (case 6)', () => {
	it('five triggers on one credential whose secret was rotated: one sign-in attempt per pause, never a lockout', async () => {
		fakeClock.start();
		storeCredential('rotated', 'the-old-secret');
		const triggers = Array.from({ length: 5 }, (_, i) => trigger('rotated', `Poll ${i + 1}`));
		const before = fx.count('/generate_token');
		const attempts: number[] = [];
		for (let round = 0; round < 4; round++) {
			const roundStart = fx.count('/generate_token');
			// Each trigger polls at its own second of the minute, as activations spread them.
			for (const wf of triggers) {
				const result = await wf.poll();
				expect(result.error?.message).toMatch(/refused to sign in|Polling is paused/);
				fakeClock.advance(1_000);
			}
			attempts.push(fx.count('/generate_token') - roundStart);
			fakeClock.advance(MINUTE);
		}
		// Four rounds inside one pause: only the very first poll asked the bank.
		expect(attempts).toEqual([1, 0, 0, 0]);
		fakeClock.advance(15 * MINUTE);
		for (const wf of triggers) await wf.poll();
		expect(fx.count('/generate_token') - before).toBe(2);

		// The new secret is saved: the next poll after the pause signs in (the bank did not lock the client out).
		storeCredential('rotated', fx.bank.seed.clientSecret);
		fakeClock.advance(16 * MINUTE);
		const results = [];
		for (const wf of triggers) results.push(await wf.poll());
		expect(results.map((r) => r.error?.message)).toEqual([undefined, undefined, undefined, undefined, undefined]);
		expect(fx.bank.requests().filter((entry) => entry.status === 423)).toHaveLength(0);
	});
});
