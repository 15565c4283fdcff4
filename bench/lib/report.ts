import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { fmt } from './stats';

export interface Row {
	contender: string;
	figures: Record<string, number>;
}

export interface BenchResult {
	benchmark: string;
	workload: string;
	rows: Row[];
	/** Named ratios, e.g. { 'ours/fetch @5': 1.12 }. */
	ratios: Record<string, number>;
	/** Targets from issue 11 with whether this run met them. */
	targets?: Array<{ what: string; value: number; limit: number; met: boolean }>;
	notes?: string[];
}

export function target(what: string, value: number, limit: number) {
	return { what, value, limit, met: value <= limit };
}

/** Prints one benchmark's workload, each contender's figures and the ratios, as a markdown table. */
export function printResult(result: BenchResult) {
	const keys = [...new Set(result.rows.flatMap((r) => Object.keys(r.figures)))];
	const lines = [
		'',
		`## ${result.benchmark}`,
		`workload: ${result.workload}`,
		'',
		`| contender | ${keys.join(' | ')} |`,
		`|---|${keys.map(() => '---:').join('|')}|`,
		...result.rows.map((r) => `| ${r.contender} | ${keys.map((k) => (k in r.figures ? fmt(r.figures[k]) : '')).join(' | ')} |`),
		'',
		...Object.entries(result.ratios).map(([name, value]) => `ratio ${name}: ${fmt(value)}×`),
		...(result.targets ?? []).map((t) => `target ${t.what}: ${fmt(t.value)} (limit ${fmt(t.limit)}) ${t.met ? 'MET' : 'NOT MET'}`),
		...(result.notes ?? []).map((n) => `note: ${n}`),
	];
	process.stdout.write(`${lines.join('\n')}\n`);
}

export function machine() {
	return {
		date: new Date().toISOString(),
		node: process.version,
		cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
		memoryGb: Math.round(os.totalmem() / 2 ** 30),
		loadavg: os.loadavg().map((l) => Number(l.toFixed(2))),
	};
}

/** Writes the run's JSON summary to bench/results/ (ignored by git). */
export function saveResults(name: string, results: BenchResult[]): string {
	const dir = path.resolve(__dirname, '../results');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
	const body = JSON.stringify({ machine: machine(), results }, null, '\t');
	fs.writeFileSync(file, body);
	fs.writeFileSync(path.join(dir, `${name}-latest.json`), body);
	return file;
}
