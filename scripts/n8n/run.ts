import { spawn } from 'node:child_process';

export type Log = (line: string) => void;

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Seconds before the command is killed. */
	timeoutSeconds?: number;
	/** Keep the output quiet unless the command fails. */
	quiet?: boolean;
}

/** Runs a command to completion; rejects with its last output lines when it fails or overruns. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		const collect = (chunk: Buffer) => {
			output += chunk.toString();
			if (!options.quiet) process.stdout.write(chunk);
		};
		child.stdout.on('data', collect);
		child.stderr.on('data', collect);
		const timer = options.timeoutSeconds
			? setTimeout(() => child.kill('SIGKILL'), options.timeoutSeconds * 1000)
			: undefined;
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			if (code === 0) return resolve(output);
			const tail = output.split('\n').filter((line) => !line.includes('Unknown user config')).slice(-25).join('\n');
			reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail}`));
		});
	});
}

/** Prints "› step…" then "  done in Ns" so a long first run shows where it is. */
export async function step<T>(log: Log, title: string, work: () => Promise<T>): Promise<T> {
	const started = Date.now();
	log(`› ${title}…`);
	const result = await work();
	log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return result;
}
