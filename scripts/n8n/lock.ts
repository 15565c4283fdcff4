import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Log } from './run';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process with this id still runs (a lock whose holder died is taken over). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The holder's pid, or undefined when its folder is gone or was made so long ago that a pid should be in it. */
function holder(folder: string): number | undefined | 'unknown' {
	try {
		return Number(readFileSync(path.join(folder, 'pid'), 'utf8'));
	} catch {
		try {
			// Made a moment ago: the pid is being written.
			return Date.now() - statSync(folder).mtimeMs < 30_000 ? 'unknown' : undefined;
		} catch {
			return undefined;
		}
	}
}

/**
 * Runs `work` while holding `folder` as a lock across processes (mkdir is atomic): one build, pack or install at
 * a time on this machine, whichever suite or clone asks. A lock left by a process that died is taken over.
 */
export async function withLock<T>(folder: string, log: Log, what: string, work: () => Promise<T>): Promise<T> {
	let told = false;
	mkdirSync(path.dirname(folder), { recursive: true });
	for (;;) {
		try {
			mkdirSync(folder);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const pid = holder(folder);
		if (pid === undefined || (pid !== 'unknown' && !alive(pid))) {
			rmSync(folder, { recursive: true, force: true });
			continue;
		}
		if (!told) log(`waiting for ${pid === 'unknown' ? 'another process' : `process ${pid}`} to finish its ${what} (${folder})`);
		told = true;
		await sleep(1_000);
	}
	try {
		writeFileSync(path.join(folder, 'pid'), String(process.pid));
		return await work();
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
