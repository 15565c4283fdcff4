/** Seeded PRNG (mulberry32): the same seed gives the same data, run after run. */
export class Prng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	digits(n: number): string {
		let s = '';
		for (let i = 0; i < n; i++) s += String(Math.floor(this.next() * 10));
		return s;
	}

	/** RFC 4122 version 4 layout, but drawn from this PRNG so ids are reproducible. */
	uuid(): string {
		let hex = '';
		for (let i = 0; i < 4; i++) {
			hex += (Math.floor(this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
		}
		const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}
}
