import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxHandle } from '../../sandbox';
import type { Log } from './run';

/**
 * A registration of an earlier run that no longer reaches this n8n: a test URL (its listen is over) or an
 * address of this machine on another port (an earlier run on another --port). Delivering to them costs retries
 * and n8n log lines for every event; a URL elsewhere (a tunnel, another host) is left alone.
 */
export function staleRegistration(url: string, n8nPort: number): boolean {
	const parsed = new URL(url);
	const local = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
	if (!local) return false;
	return Number(parsed.port || 80) !== n8nPort || parsed.pathname.startsWith('/webhook-test/');
}

/**
 * The sandbox bank starts empty on every run, but n8n remembers that its active triggers registered their URLs
 * (the contract has no way to ask the bank), so it would not register them again and no event would arrive.
 * The dev bank therefore keeps its webhook registrations in the dev folder: restored at start (without the
 * stale ones), saved as they change.
 */
export function keepRegistrations(bank: SandboxHandle, file: string, n8nPort: number, stops: Array<() => Promise<void>>, log: Log) {
	if (existsSync(file)) {
		const restored = JSON.parse(readFileSync(file, 'utf8')) as typeof bank.bank.webhooks;
		const stale = restored.filter((hook) => staleRegistration(hook.url, n8nPort));
		bank.bank.webhooks.push(...restored.filter((hook) => !stale.includes(hook)));
		for (const hook of stale) log(`  dropped the registration of an earlier run: ${hook.url}`);
	}
	let saved = '';
	const save = () => {
		const now = JSON.stringify(bank.bank.webhooks);
		if (now === saved) return;
		mkdirSync(path.dirname(file), { recursive: true });
		writeFileSync(file, now);
		saved = now;
	};
	save();
	const timer = setInterval(save, 1_000);
	stops.push(async () => {
		clearInterval(timer);
		save();
	});
}
