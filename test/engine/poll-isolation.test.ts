/**
 * Issue 20, cases 5 and 9: one record that cannot be read stays pending (with a warning naming it) while
 * everything else flows; malformed list entries are skipped with a warning; no reference string is special.
 */
import { ApiError } from '../../sandbox/http/envelope';
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, POOL, transfer, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { collectLogs, eventsOf, PollingWorkflow, referencesOf } from './harness/pollWorkflow';

const DELAYS = [...POLL_LIMITS.recheckDelaysMs];
const fx = useBankFixture({ transactions: 0 }, () => {
	POLL_LIMITS.recheckDelaysMs = DELAYS;
	for (const spy of spies.splice(0)) spy.mockRestore();
	clearPause();
});
const logged = collectLogs();
const spies: jest.SpyInstance[] = [];

const ALL = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'];
let seq = 0;
const trigger = () => new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ALL }, undefined, `wf-isolation-${++seq}`);

describe('Poll Trigger: isolation', () => {
	it('case 5: a transfer whose status look-up fails (83) stays pending with a warning; the others flow', async () => {
		POLL_LIMITS.recheckDelaysMs = [0];
		const wf = trigger();
		await wf.poll();
		const bad = transfer(fx.bank, 'intra');
		const good = transfer(fx.bank, 'intra');
		const collection = collect(fx.bank, VIRTUALS[0]);
		const bank = fx.bank.bank;
		const findTransfer = bank.findTransfer.bind(bank);
		const unreadable = jest.spyOn(bank, 'findTransfer').mockImplementation((businessId: string, reference: string) => {
			if (reference === bad.reference) throw new ApiError('83', 'Provider error: status not available');
			return findTransfer(businessId, reference);
		});
		spies.push(unreadable);
		logged.length = 0;
		const first = await wf.poll();
		expect(first.error).toBeUndefined();
		expect(eventsOf(first.json).sort()).toEqual(
			[
				['TRANSFER_SUCCESS', good.reference],
				['COLLECTION_SUCCESS', collection],
			].sort(),
		);
		expect(logged.join('\n')).toContain(`could not read the status of ${bad.reference}`);
		const more = collect(fx.bank, VIRTUALS[1]);
		expect(referencesOf((await wf.poll()).json)).toEqual([more]);

		unreadable.mockRestore(); // readable again: its outcome arrives, once
		expect(eventsOf((await wf.poll()).json)).toEqual([['TRANSFER_SUCCESS', bad.reference]]);
		expect((await wf.poll()).json).toEqual([]);
	});

	it('case 9: a null entry in the bank\'s list is skipped with a warning; the rest are emitted', async () => {
		const wf = trigger();
		await wf.poll();
		const broken = collect(fx.bank, VIRTUALS[2]);
		const fine = collect(fx.bank, VIRTUALS[2]);
		fx.bank.markMalformed(broken, 'null');
		logged.length = 0;
		const result = await wf.poll();
		expect(result.error).toBeUndefined();
		expect(referencesOf(result.json)).toEqual([fine]);
		expect(logged.join('\n')).toMatch(/skipped 1 malformed entry in the bank's lists/);
	});

	it('case 9: references named constructor, toString, __proto__ and hasOwnProperty are emitted, once', async () => {
		const wf = trigger();
		await wf.poll();
		const collections = ['constructor', '__proto__'];
		const transfers = ['toString', 'hasOwnProperty', 'valueOf'];
		for (const reference of collections) {
			fx.bank.bank.collect({ accountNumber: VIRTUALS[3], amount: 100n, reference, senderName: 'Odd' }, Date.now());
		}
		for (const reference of transfers) {
			const input = { reference_number: reference, transfer_type: 'intra' as const, amount: 1n, source_account_number: POOL, beneficiary_account_number: VIRTUALS[4], narration: 'odd' };
			fx.bank.bank.initiateTransfer(fx.bank.bank.main.id, input, Date.now());
		}
		const first = await wf.poll();
		expect(first.error).toBeUndefined();
		const keys = eventsOf(first.json).map(([event, reference]) => `${event}:${reference}`).sort();
		expect(keys).toEqual([...collections.map((r) => `COLLECTION_SUCCESS:${r}`), ...transfers.map((r) => `TRANSFER_SUCCESS:${r}`)].sort());
		expect((await wf.poll()).json).toEqual([]);
	});
});
