/**
 * A line every so often while a long install runs, saying what it is doing and for how long: the first
 * `npm run dev` on a busy machine spent 9 minutes installing n8n with nothing on screen, which reads as a hang.
 * npm's own output is no help here (it prints nothing but a spinner, or a flood with --loglevel http), so the
 * lines count what npm has unpacked so far.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { Log } from './run';

/** Seconds between two progress lines: often enough to show it is alive, rare enough for a CI log. */
export const PROGRESS_EVERY_SECONDS = 20;

export const minutesAndSeconds = (ms: number) => {
	const seconds = Math.floor(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
};

/** Runs `work`, logging `  … <status()>, <elapsed> so far` every `everySeconds` until it ends, however it ends. */
export async function withProgress<T>(log: Log, status: () => string, work: () => Promise<T>, everySeconds = PROGRESS_EVERY_SECONDS): Promise<T> {
	const started = Date.now();
	const timer = setInterval(() => log(`  … ${status()}, ${minutesAndSeconds(Date.now() - started)} so far`), everySeconds * 1000);
	// A progress line never keeps the process alive.
	timer.unref();
	try {
		return await work();
	} finally {
		clearInterval(timer);
	}
}

/**
 * How many packages npm has unpacked into <folder>/node_modules so far (scoped ones counted one by one; nested
 * copies not). A package counts once its package.json is there: npm makes every package's folder before it
 * unpacks any of them.
 */
export function packagesIn(folder: string): number {
	const list = (dir: string) => {
		try {
			return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
		} catch {
			return [];
		}
	};
	const modules = path.join(folder, 'node_modules');
	const unpacked = (dir: string) => (existsSync(path.join(dir, 'package.json')) ? 1 : 0);
	return list(modules).reduce((count, entry) => {
		const dir = path.join(modules, entry.name);
		return count + (entry.name.startsWith('@') ? list(dir).reduce((n, scoped) => n + unpacked(path.join(dir, scoped.name)), 0) : unpacked(dir));
	}, 0);
}
