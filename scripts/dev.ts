/**
 * `npm run dev`: the sandbox bank plus the real n8n with this package loaded, as a user would have it.
 * Builds and packs the package, starts the bank on 127.0.0.1:4010 (and the sandbox's stand-in model for the AI
 * examples on a free port, sandbox/model), installs n8n into .cache/ on first run,
 * installs the package the community way, imports sandbox credentials and the example workflows, activates
 * "BaaS: first look", starts n8n on 127.0.0.1:5678 and prints what to do. Ctrl-C stops everything.
 *
 * Flags: --n8n 2|1 (n8n 2.x on Node 24, the default; or 1.x on Node 20), --port N (n8n), --bank-port N,
 * --reset (forget this clone's dev n8n data: workflows, executions, the owner; n8n itself stays installed).
 * n8n's other listeners (its task broker) get free ports, so a second `npm run dev` needs only --port/--bank-port.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { startSandbox } from '../sandbox';
import { ownerSession, SANDBOX_OWNER } from './n8n/api';
import { aiCredentials } from './n8n/aiCredentials';
import { sandboxCredentials } from './n8n/credentials';
import { aiReadyLines, startDevModel } from './n8n/devAi';
import { ensureN8n, installCommunityPackage, isN8nInstalled, packPackage } from './n8n/install';
import type { RunningN8n } from './n8n/instance';
import { n8nCli, startN8n } from './n8n/instance';
import { isPortFree } from './n8n/ports';
import { keepRegistrations } from './n8n/registrations';
import { CACHE_DIR, HOST_CACHE_DIR, LINES } from './n8n/paths';
import { addExpectedPayments, examplesBankNote, setUpExamples } from './n8n/devExamples';
import { planDevDays } from './n8n/expectedPayments';
import { step } from './n8n/run';

const log = (line: string) => process.stdout.write(`${line}\n`);

function flag(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

function portFlag(name: 'port' | 'bank-port', fallback: number): number {
	const value = Number(flag(name, String(fallback)));
	if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`--${name} needs a port number, 1 to 65535`);
	return value;
}

/** A taken port is said before anything starts, with the flag that picks another. */
async function requireFree(port: number, what: string, name: 'port' | 'bank-port'): Promise<void> {
	if (await isPortFree(port)) return;
	throw new Error(
		`127.0.0.1:${port}, the ${what}'s port, is already in use (another npm run dev, n8n, or another program).\n` +
			`  Pick another, e.g.: npm run dev -- --${name} ${port + 1}`,
	);
}

async function main() {
	const lineKey = flag('n8n', '2') === '1' ? '1' : '2';
	const line = LINES[lineKey];
	const userFolder = path.join(CACHE_DIR, 'dev', `n8n-${line.version}`);
	if (process.argv.includes('--reset')) {
		rmSync(userFolder, { recursive: true, force: true });
		log(`--reset: removed ${userFolder} (this clone's dev n8n data); the examples are imported again.`);
	}
	// Said before any wait starts, so nobody wonders whether it hangs.
	log(
		isN8nInstalled(line)
			? `n8n ${line.version} is already installed in ${HOST_CACHE_DIR}: ready in about a minute.`
			: `First run on this machine: n8n ${line.version} is installed once into ${HOST_CACHE_DIR}, which takes about 5 to 10 minutes (a progress line every 20 s). Later runs, from any clone, are ready in about a minute.`,
	);
	const stops: Array<() => Promise<void>> = [];
	let stopping = false;
	const stopAll = async (code: number) => {
		if (stopping) return;
		stopping = true;
		log('\nStopping…');
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		process.exit(code);
	};
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));

	try {
		const port = portFlag('port', 5678);
		const bankPort = portFlag('bank-port', 4010);
		await requireFree(bankPort, 'sandbox bank', 'bank-port');
		await requireFree(port, 'n8n editor', 'port');
		const tarball = await packPackage(log);
		const bank = await step(log, `Starting the sandbox bank on 127.0.0.1:${bankPort}`, () =>
			startSandbox({ port: bankPort, transactions: 2000, interSettleDelayMs: 3000 }),
		);
		stops.push(() => bank.close());
		// The days the expected payments are due on: their collections and settlements, made again in this bank.
		const planned = planDevDays(userFolder, bank);
		const model = await startDevModel();
		stops.push(() => model.close());
		keepRegistrations(bank, path.join(userFolder, 'bank-webhooks.json'), port, stops, log);
		const install = await ensureN8n(line, log);

		const firstRun = !existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
		mkdirSync(userFolder, { recursive: true });
		await installCommunityPackage(userFolder, tarball, install.runtime, log);
		const config = { install, userFolder, port, encryptionKey: 'n8n-nodes-baas-dev-only', portHint: `npm run dev -- --port ${port + 1}` };

		await step(log, 'Importing the sandbox credentials', async () => {
			const file = path.join(userFolder, 'sandbox-credentials.json');
			writeFileSync(file, JSON.stringify([...sandboxCredentials(bank), ...aiCredentials(model.baseUrl)]));
			await n8nCli(config, ['import:credentials', `--input=${file}`]);
		});
		const n8n: RunningN8n = await step(log, `Starting n8n ${line.version} on 127.0.0.1:${port}`, () => startN8n(config, log));
		stops.push(() => n8n.stop());
		const cookie = await step(log, 'Signing in the owner', () => ownerSession(n8n.url));
		const examplesNote = firstRun
			? await step(log, 'Creating the data tables and importing the example workflows (first run only, so your edits stay)', () =>
					setUpExamples(config, n8n.url, cookie, bank),
				)
			: examplesBankNote(userFolder, bank.url);
		await addExpectedPayments(n8n.url, cookie, planned.added);
		planned.remember();

		const account = bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
		log(`
Ready.
  n8n editor      ${n8n.url}   (log in: ${SANDBOX_OWNER.email} / ${SANDBOX_OWNER.password})
  sandbox bank    ${bank.url}   (client_id ${bank.seed.clientId}; dashboard ${bank.seed.dashboardEmail})
  credentials     ${sandboxCredentials(bank).map((c) => `"${c.name}"`).join(' and ')} in n8n, pointing at this bank

Try first — a collection lands, "BaaS: first look" runs and reads the new balance:
  curl -s -X POST ${bank.url}/__sandbox/collections -H 'content-type: application/json' \\
    -d '{"account_number":"${account.account_number}","amount":"1500.00","reference":"TRY-'"$(date +%s)"'"}'
Then open ${n8n.url} → "BaaS: first look" → Executions.

Examples that need no account (examples/README.md): "BaaS: collection alert" (active: the curl above also adds a row
to the data table "BaaS collections" and a message to the bank's chat inbox, ${bank.url}/__sandbox/chat), "BaaS:
payouts from a data table" and "BaaS: daily report" (open, Execute workflow), "BaaS: payouts from a CSV file"
(active: ${n8n.url}/form/baas-payouts, upload examples/payouts-sample.csv). Those marked "needs … account" want
your Google Sheets / Slack credentials.
Close the day: "BaaS: daily close" (open, Execute workflow) matches yesterday's collections against the thirteen
invoices due yesterday in the data table "BaaS expected payments" (every outcome at least once), writes each row's
outcome back and posts a summary to the chat; "BaaS: settlement check" posts yesterday's settlement exceptions; a statement
as CSV: ${n8n.url}/form/baas-statement.${examplesNote ? `\n${examplesNote}` : ''}

${aiReadyLines(line, n8n.url, model)}

Ctrl-C stops n8n and the bank.`);
	} catch (error) {
		log(`\nnpm run dev failed: ${(error as Error).message}`);
		await stopAll(1);
	}
}

void main();
