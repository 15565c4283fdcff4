/** Issue 20, case 3: records the bank stamps in the future, and a bank clock off by more than the overlap. */
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { collectLogs, fakeClock, PollingWorkflow, referencesOf } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
});
const logged = collectLogs();

const MINUTE = 60_000;
let seq = 0;
const trigger = (accountNumber: string) =>
	new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ['COLLECTION_SUCCESS'], accountNumber }, undefined, `wf-time-${++seq}`);

describe('Poll Trigger: time', () => {
	it('a record stamped an hour ahead (local time labelled UTC) is emitted once and hides nothing after it', async () => {
		fakeClock.start();
		const wf = trigger(VIRTUALS[0]);
		await wf.poll();
		const ahead = collect(fx.bank, VIRTUALS[0], Date.now() + 60 * MINUTE);
		logged.length = 0;
		expect(referencesOf((await wf.poll()).json)).toEqual([ahead]);
		expect(logged.join('\n')).toMatch(/1 record\(s\) stamped up to 60 min ahead of n8n's clock/);

		const seen: string[] = [];
		const made: string[] = [];
		// Two hours of polls, one a minute, one collection every 10 minutes, past the future record's stamp.
		for (let minute = 1; minute <= 120; minute++) {
			fakeClock.advance(MINUTE);
			if (minute % 10 === 0) made.push(collect(fx.bank, VIRTUALS[0]));
			const result = await wf.poll();
			expect(result.error).toBeUndefined();
			seen.push(...referencesOf(result.json));
		}
		expect(seen).toEqual(made);
	});

	it('a bank server 6 minutes ahead loses none of the next minute\'s events', async () => {
		const wf = trigger(VIRTUALS[1]);
		await wf.poll();
		const early = collect(fx.bank, VIRTUALS[1], Date.now() + 6 * MINUTE);
		expect(referencesOf((await wf.poll()).json)).toEqual([early]);
		const next = [collect(fx.bank, VIRTUALS[1]), collect(fx.bank, VIRTUALS[1], Date.now() + 30_000)];
		expect(referencesOf((await wf.poll()).json)).toEqual(next);
		expect(referencesOf((await wf.poll()).json)).toEqual([]);
	});

	it('a bank clock 20 minutes behind n8n\'s: every event emitted, and a warning in n8n\'s log', async () => {
		fakeClock.start();
		const bankNow = () => Date.now() - 20 * MINUTE;
		const wf = trigger(VIRTUALS[2]);
		collect(fx.bank, VIRTUALS[2], bankNow());
		await wf.poll();
		const made: string[] = [];
		const seen: string[] = [];
		logged.length = 0;
		for (let i = 0; i < 5; i++) {
			fakeClock.advance(MINUTE);
			made.push(collect(fx.bank, VIRTUALS[2], bankNow()));
			seen.push(...referencesOf((await wf.poll()).json));
		}
		expect(seen).toEqual(made);
		expect(logged.join('\n')).toMatch(/new record\(s\) stamped up to 19 min before the previous poll/);
	});
});
