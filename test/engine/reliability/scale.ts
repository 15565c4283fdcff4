/**
 * The reliability suites (payouts under faults, lost answers, token life, forged webhooks, bad input, secrets)
 * run small inside `npm test` and at full size in `npm run test:reliability` (BAAS_RELIABILITY=full).
 */
export const FULL_SIZE = process.env.BAAS_RELIABILITY === 'full';

/** The size of a workload: `small` within npm test, `full` in npm run test:reliability. */
export function sized(small: number, full: number): number {
	return FULL_SIZE ? full : small;
}

/**
 * Prints a suite's one-line summary (`reliability <suite>: name=value …`) straight to stdout, past jest's console
 * capture, so the figures stand in CI's log without a stack frame under each.
 */
export function reportFigures(suite: string, figures: Record<string, number | string>): void {
	const line = Object.entries(figures)
		.map(([name, value]) => `${name}=${value}`)
		.join(' ');
	process.stdout.write(`reliability ${suite} (${FULL_SIZE ? 'full' : 'small'}): ${line}\n`);
}
