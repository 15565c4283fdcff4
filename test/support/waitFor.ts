/**
 * The one polling helper of the tests: asks `probe` until it gives a value (anything but undefined or false)
 * and returns that value, or fails naming `what` it waited for. Used where the thing waited for happens in the
 * background (webhook deliveries, executions of a running n8n).
 */
export async function waitFor<T>(
	what: string,
	probe: () => T | undefined | false | Promise<T | undefined | false>,
	{ timeoutMs = 10_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}
