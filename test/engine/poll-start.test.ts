/** Issue 20, cases 2 and 8: Start From seeds a trigger that has no saved place, once; it never resets the place. */
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { PollingWorkflow, referencesOf } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => clearPause());

const MINUTE = 60_000;
let seq = 0;
/** Each test watches its own account, so the history of one test is not another's backfill. */
const trigger = (accountNumber: string, options: Record<string, unknown>) =>
	new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ['COLLECTION_SUCCESS'], accountNumber, options }, undefined, `wf-start-${++seq}`);

describe('Poll Trigger: Start From applies once', () => {
	it('case 2: Start From as an expression (one hour ago) backfills once, then emits only new events', async () => {
		const history = collect(fx.bank, VIRTUALS[0], Date.now() - 30 * MINUTE);
		const wf = trigger(VIRTUALS[0], { startFrom: '={{ $now.minus(1, "hour").toISO() }}' });
		expect(referencesOf((await wf.poll()).json)).toEqual([history]);
		for (let i = 0; i < 3; i++) {
			await new Promise((resolve) => setTimeout(resolve, 5)); // the expression gives another value each poll
			const again = await wf.poll();
			expect(again.error).toBeUndefined();
			expect(referencesOf(again.json)).toEqual([]);
		}
		const fresh = collect(fx.bank, VIRTUALS[0]);
		expect(referencesOf((await wf.poll()).json)).toEqual([fresh]);
	});

	it('case 8: clearing Start From after the backfill loses nothing; moving it later repeats nothing', async () => {
		const a = collect(fx.bank, VIRTUALS[2], Date.now() - 50 * MINUTE);
		const b = collect(fx.bank, VIRTUALS[2], Date.now() - 20 * MINUTE);
		const wf = trigger(VIRTUALS[2], { startFrom: new Date(Date.now() - 60 * MINUTE).toISOString() });
		expect(referencesOf((await wf.poll()).json)).toEqual([a, b]);

		const whileEditing = collect(fx.bank, VIRTUALS[2]);
		wf.edit({ options: {} }); // Start From cleared and the workflow saved (n8n re-activates it)
		expect(referencesOf((await wf.poll()).json)).toEqual([whileEditing]);

		const later = collect(fx.bank, VIRTUALS[2]);
		wf.edit({ options: { startFrom: new Date(Date.now() - 30 * MINUTE).toISOString() } }); // moved later than a
		expect(referencesOf((await wf.poll()).json)).toEqual([later]);
		expect(referencesOf((await wf.poll()).json)).toEqual([]);
	});

	it('a new node (the documented way to start over) uses Start From again', async () => {
		const old = collect(fx.bank, VIRTUALS[3], Date.now() - 10 * MINUTE);
		const since = new Date(Date.now() - 15 * MINUTE).toISOString();
		const first = trigger(VIRTUALS[3], { startFrom: since });
		expect(referencesOf((await first.poll()).json)).toContain(old);
		const duplicate = trigger(VIRTUALS[3], { startFrom: since });
		expect(referencesOf((await duplicate.poll()).json)).toContain(old);
	});
});
