/** Medians, ratios and the alternating runner every benchmark uses: contenders take turns within one run. */

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export type Figures = Record<string, number>;

export interface Contender {
	name: string;
	/** One repetition; returns its figures (e.g. { ms, failed, tokenRequests }). */
	run: () => Promise<Figures>;
}

/** Medians of each figure per contender, over `repetitions` rounds in which every contender runs once, in turn. */
export async function alternate(contenders: Contender[], repetitions: number): Promise<Record<string, Figures>> {
	const samples: Record<string, Figures[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
	for (let round = 0; round < repetitions; round++) {
		// Rotate the starting contender so none always runs on a warmer (or colder) machine.
		for (let i = 0; i < contenders.length; i++) {
			const contender = contenders[(i + round) % contenders.length];
			samples[contender.name].push(await contender.run());
		}
	}
	return Object.fromEntries(
		Object.entries(samples).map(([name, runs]) => [
			name,
			Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((r) => r[key]))])),
		]),
	);
}

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = process.hrtime.bigint();
	const value = await work();
	return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export const ratio = (a: number, b: number) => (b === 0 ? NaN : a / b);

export function fmt(value: number): string {
	if (!Number.isFinite(value)) return String(value);
	if (Math.abs(value) >= 100) return value.toFixed(0);
	if (Math.abs(value) >= 10) return value.toFixed(1);
	return value.toFixed(value === Math.round(value) ? 0 : 3);
}
