import type { BankFixture } from './bankFixture';
import { runNode, type RunNodeOptions } from './runNode';

/** Runs the node and asserts it failed on its input with `message` and sent nothing to the bank (no token request either). */
export async function expectRejectedWithoutRequest(fx: BankFixture, options: RunNodeOptions, message: RegExp) {
	const before = fx.bank.requests().length;
	const run = await runNode(fx.credentials, options);
	expect(run.error).toMatchObject({ name: 'NodeOperationError' });
	expect(run.error!.message).toMatch(message);
	expect(fx.bank.requests().length).toBe(before);
}
