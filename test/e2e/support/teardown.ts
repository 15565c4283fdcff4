/** What a stack started, stopped in reverse order; a failing stop is logged and the others still run. */
export function teardown(log: (line: string) => void) {
	const started: Array<() => Promise<void>> = [];
	const stop = async () => {
		for (const close of started.reverse()) await close().catch((error: Error) => log(`stop: ${error.message}`));
	};
	return { started, stop };
}
