/**
 * Issue 33, item 6: state that costs nothing when nothing happens. A poll that finds nothing new leaves the node's
 * static data as it was (n8n notices a change through its top-level properties and saves the whole object); a
 * busy poll writes it. Both list shapes, after a day's worth of records fills the trigger's memory.
 */
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, settle, transfer, VIRTUALS } from './harness/bankActivity';
import { useBankFixture } from './harness/bankFixture';
import { LIST_SHAPES } from './harness/listShapes';
import { contractTrigger } from './harness/pollDriver';
import { fakeClock } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => {
	fakeClock.stop();
	clearPause();
	fx.bank.reset();
});

describe.each(LIST_SHAPES)('Poll Trigger static data (%s list shape)', (shape) => {
	it('a quiet poll leaves the static data as it was; a poll with a new event writes it', async () => {
		fakeClock.start();
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		// A busy stretch: 600 collections and a few transfers (one failing), then polls until all is out.
		for (let i = 0; i < 600; i++) collect(fx.bank, VIRTUALS[i % VIRTUALS.length], Date.now() + 1 + i * 50);
		for (let i = 0; i < 5; i++) settle(fx.bank, transfer(fx.bank, i === 0 ? 'failing' : 'intra', Date.now() + 100 + i));
		await driver.pollThrough(20);
		expect(driver.oracle.outstanding()).toEqual([]);
		// Let the pending checks and the checks behind the place settle.
		await driver.pollUntilQuiet({ everyMs: 60_000, quiet: 3, most: 10 });
		const quiet = [];
		for (let i = 0; i < 10; i++) {
			fakeClock.advance(60_000);
			quiet.push(await driver.poll());
		}
		expect(quiet.map((poll) => ({ emitted: poll.emitted, written: poll.staticDataWritten }))).toEqual(Array(10).fill({ emitted: 0, written: false }));
		expect(driver.polls.at(-1)?.staticDataSize).toBeGreaterThan(10_000);
		fakeClock.advance(60_000);
		collect(fx.bank, VIRTUALS[0], Date.now());
		const busy = await driver.poll();
		expect({ emitted: busy.emitted, written: busy.staticDataWritten }).toEqual({ emitted: 1, written: true });
	});

	it('a trigger on lists that hold nothing writes nothing at its quiet polls', async () => {
		fakeClock.start();
		const driver = contractTrigger(fx, shape);
		expect((await driver.activate()).error).toBeUndefined();
		const quiet = [];
		for (let i = 0; i < 5; i++) {
			fakeClock.advance(60_000);
			quiet.push(await driver.poll());
		}
		expect(quiet.map((poll) => ({ emitted: poll.emitted, written: poll.staticDataWritten, error: poll.error }))).toEqual(
			Array(5).fill({ emitted: 0, written: false, error: undefined }),
		);
	});
});
