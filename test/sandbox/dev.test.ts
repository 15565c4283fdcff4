/** `npm run dev` around the bank: what it restores of earlier runs, and what it says when a port is taken. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort } from '../../scripts/n8n/ports';
import { keepRegistrations } from '../../scripts/n8n/registrations';
import { boot } from './helpers';

jest.setTimeout(60_000);

describe('registrations kept across runs', () => {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'baas-dev-test-'));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('restores this n8n’s registrations and drops those of earlier runs on other ports and ended listens', async () => {
		const { sb } = await boot({ transactions: 0 });
		const file = path.join(folder, 'bank-webhooks.json');
		const hook = (url: string) => ({ id: url, businessId: sb.bank.main.id, url, events: ['COLLECTION_SUCCESS'], createdAtMs: 0, updatedAtMs: 0 });
		const urls = {
			current: 'http://127.0.0.1:46217/webhook/abc/webhook',
			otherPort: 'http://127.0.0.1:5678/webhook/abc/webhook',
			localhost: 'http://localhost:5678/webhook/abc/webhook',
			listenEnded: 'http://127.0.0.1:46217/webhook-test/abc/webhook',
			tunnel: 'https://n8n.example.com/webhook/abc/webhook',
		};
		writeFileSync(file, JSON.stringify(Object.values(urls).map(hook)));
		const stops: Array<() => Promise<void>> = [];
		const logged: string[] = [];
		try {
			keepRegistrations(sb, file, 46217, stops, (line) => logged.push(line));
			expect(sb.bank.webhooks.map((w) => w.url)).toEqual([urls.current, urls.tunnel]);
			expect(logged).toEqual([urls.otherPort, urls.localhost, urls.listenEnded].map((url) => `  dropped the registration of an earlier run: ${url}`));
			// The file says so at once, so a crash before the next save does not bring them back.
			expect((JSON.parse(readFileSync(file, 'utf8')) as Array<{ url: string }>).map((w) => w.url)).toEqual([urls.current, urls.tunnel]);
		} finally {
			for (const stop of stops) await stop();
			await sb.close();
		}
	});
});

describe('npm run dev on a taken port', () => {
	let taken: Server;
	let port: number;
	beforeAll(async () => {
		taken = createServer();
		await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
		port = (taken.address() as { port: number }).port;
	});
	afterAll(async () => await new Promise((resolve) => taken.close(resolve)));

	async function dev(args: string[]): Promise<{ code: number | null; output: string }> {
		const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['scripts/dev.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		return { code, output };
	}

	it.each([
		['--bank-port', "the sandbox bank's port"],
		['--port', "the n8n editor's port"],
	])('%s taken: it stops before starting anything and names the flag that picks another', async (name, what) => {
		// The bank's port is checked first: a free one, so the n8n case does not depend on 4010 being free here.
		const { code, output } = await dev(name === '--port' ? [name, String(port), '--bank-port', String(await freePort())] : [name, String(port)]);
		expect(code).toBe(1);
		expect(output).toContain(`127.0.0.1:${port}, ${what}, is already in use`);
		expect(output).toContain(`Pick another, e.g.: npm run dev -- ${name} ${port + 1}`);
		expect(output).not.toMatch(/EADDRINUSE|Packing|Starting/);
	});
});
