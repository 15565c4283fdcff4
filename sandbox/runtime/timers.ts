/** Every timer the sandbox starts goes through here, so close() and reset() can cancel them all. */
export class TimerSet {
	private timers = new Set<NodeJS.Timeout>();
	private sleepers = new Set<(completed: boolean) => void>();

	after(ms: number, fn: () => void): NodeJS.Timeout {
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, ms);
		this.timers.add(t);
		return t;
	}

	cancel(t: NodeJS.Timeout): void {
		clearTimeout(t);
		this.timers.delete(t);
	}

	/** Resolves true after ms, or false at once if the set is cleared first (the caller should then stop). */
	sleep(ms: number): Promise<boolean> {
		if (ms <= 0) return Promise.resolve(true);
		return new Promise((resolve) => {
			const done = (completed: boolean) => {
				this.sleepers.delete(done);
				resolve(completed);
			};
			this.sleepers.add(done);
			this.after(ms, () => done(true));
		});
	}

	clearAll(): void {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		for (const wake of [...this.sleepers]) wake(false);
	}
}
