/**
 * The progress lines of a long install (scripts/n8n/progress.ts): the first `npm run dev` installs n8n for
 * minutes, and a line every 20 s says what it is doing, how far, and for how long.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { minutesAndSeconds, packagesIn, withProgress } from '../../scripts/n8n/progress';

describe('withProgress', () => {
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	test('a line every 20 s with what is happening now and the time so far, none after the work ends', async () => {
		const lines: string[] = [];
		let status = 'working out its packages';
		let finish = () => undefined as void;
		const running = withProgress(
			(line) => lines.push(line),
			() => status,
			() => new Promise<void>((resolve) => (finish = resolve)),
		);
		await jest.advanceTimersByTimeAsync(19_000);
		expect(lines).toEqual([]);
		await jest.advanceTimersByTimeAsync(1_000);
		status = '812 of about 1519 packages unpacked';
		await jest.advanceTimersByTimeAsync(60_000);
		expect(lines).toEqual([
			'  … working out its packages, 20 s so far',
			'  … 812 of about 1519 packages unpacked, 40 s so far',
			'  … 812 of about 1519 packages unpacked, 1 min 00 s so far',
			'  … 812 of about 1519 packages unpacked, 1 min 20 s so far',
		]);
		finish();
		await running;
		await jest.advanceTimersByTimeAsync(120_000);
		expect(lines).toHaveLength(4);
	});

	test('stops when the work fails, and passes the failure on', async () => {
		const lines: string[] = [];
		await expect(withProgress((line) => lines.push(line), () => 'x', () => Promise.reject(new Error('npm failed')))).rejects.toThrow('npm failed');
		await jest.advanceTimersByTimeAsync(60_000);
		expect(lines).toEqual([]);
	});

	test('minutes and seconds', () => {
		expect([minutesAndSeconds(5_400), minutesAndSeconds(59_999), minutesAndSeconds(555_000)]).toEqual(['5 s', '59 s', '9 min 15 s']);
	});
});

describe('packagesIn', () => {
	test('counts the packages unpacked so far: a folder npm made but has not filled yet is not one', () => {
		const folder = mkdtempSync(path.join(os.tmpdir(), 'baas-progress-'));
		try {
			expect(packagesIn(folder)).toBe(0);
			const add = (name: string, filled = true) => {
				mkdirSync(path.join(folder, 'node_modules', name), { recursive: true });
				if (filled) writeFileSync(path.join(folder, 'node_modules', name, 'package.json'), '{}');
			};
			add('n8n');
			add('@n8n/core');
			add('@n8n/config');
			add('@n8n/empty', false);
			add('lodash', false);
			add('.bin', false);
			expect(packagesIn(folder)).toBe(3);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
