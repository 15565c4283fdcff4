/** `npm run sandbox`: start the sandbox bank on a fixed port and print everything needed to use it. */
import { startSandbox } from './index';
import type { SandboxOptions } from './types';
import { isCalendarDate } from './data/time';
import { applyStandardDayPlan } from './state/dayPlan';

const HELP = `Usage: npm run sandbox -- [options]

  --port N                 port (default 4010, or env SANDBOX_PORT)
  --host H                 host (default 127.0.0.1)
  --transactions N         generated transaction history (default 200)
  --seed N                 PRNG seed (default 42)
  --history-end YYYY-MM-DD generated history ends at the start of this day, UTC (default today)
  --token-ttl S            integration token lifetime in seconds (default 3600)
  --dashboard-token-ttl S  dashboard token lifetime in seconds (default 3600)
  --inter-delay MS         inter-bank transfer pending -> final (default 3000); alias --transfer-delay
  --no-webhooks            deliver no webhooks (an n8n the bank cannot reach; use the BaaS Poll Trigger)
  --list-shape SHAPE       documented (default: the contract's fields only) or cursor (list items carry id)
  --page-cap N             serve at most N records per list page, whatever page_size/limit asks
  --page-offsets asked     number capped pages by the size asked (page P after (P-1) x page_size): default served
  --list-quota N           serve at most N list requests (fetch_*) per clock minute, then HTTP 429
  --list-order ORDER       created (default: newest created_at first) or recorded (newest written first)
  --day-plan [YYYY-MM-DD]  apply the standard day plan (expected payments with every outcome) to that day
                           (default: the history's last day, yesterday); POST /__sandbox/reset forgets it
  --quiet                  do not log requests
  --help`;

function fail(message: string): never {
	process.stderr.write(`${message}\n\n${HELP}\n`);
	process.exit(2);
}

function parseArgs(argv: string[]): { options: SandboxOptions; quiet: boolean; dayPlan?: string } {
	const options: SandboxOptions = { port: Number(process.env.SANDBOX_PORT ?? 4010) };
	let quiet = false;
	let dayPlan: string | undefined;
	const int = (flag: string, value: string | undefined, min: number): number => {
		const n = Number(value);
		if (value === undefined || !Number.isInteger(n) || n < min) fail(`${flag} needs an integer >= ${min}`);
		return n;
	};
	const oneOf = <T extends string>(flag: string, value: string | undefined, choices: readonly T[]): T => {
		if (!choices.includes(value as T)) fail(`${flag} needs one of ${choices.join(', ')}`);
		return value as T;
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case '--port':
				options.port = int(flag, value(), 0);
				break;
			case '--host':
				options.host = value() ?? fail('--host needs a value');
				break;
			case '--transactions':
				options.transactions = int(flag, value(), 0);
				break;
			case '--seed':
				options.seed = int(flag, value(), 0);
				break;
			case '--history-end': {
				const day = value() ?? '';
				const ms = Date.parse(`${day}T00:00:00.000Z`);
				if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(ms)) fail('--history-end needs a date YYYY-MM-DD');
				options.historyEndMs = ms;
				break;
			}
			case '--token-ttl':
				options.tokenTtlSeconds = int(flag, value(), 1);
				break;
			case '--dashboard-token-ttl':
				options.dashboardTokenTtlSeconds = int(flag, value(), 1);
				break;
			case '--inter-delay':
			case '--transfer-delay':
				options.interSettleDelayMs = int(flag, value(), 0);
				break;
			case '--list-shape':
				options.listShape = oneOf(flag, value(), ['documented', 'cursor'] as const);
				break;
			case '--list-order':
				options.listOrder = oneOf(flag, value(), ['created', 'recorded'] as const);
				break;
			case '--page-cap':
				options.pageCap = int(flag, value(), 1);
				break;
			case '--page-offsets':
				options.pageOffsets = oneOf(flag, value(), ['served', 'asked'] as const);
				break;
			case '--list-quota':
				options.listQuotaPerMinute = int(flag, value(), 1);
				break;
			case '--no-webhooks':
				options.deliverWebhooks = false;
				break;
			case '--day-plan': {
				const day = inline ?? (/^\d{4}-\d{2}-\d{2}$/.test(argv[i + 1] ?? '') ? argv[++i] : '');
				if (day !== '' && !isCalendarDate(day)) fail('--day-plan takes a date YYYY-MM-DD, or none');
				dayPlan = day;
				break;
			}
			case '--quiet':
				quiet = true;
				break;
			case '--help':
			case '-h':
				process.stdout.write(`${HELP}\n`);
				process.exit(0);
				break;
			default:
				fail(`Unknown option ${argv[i]}`);
		}
	}
	if (!Number.isInteger(options.port) || (options.port as number) < 0) fail('SANDBOX_PORT must be an integer');
	return { options, quiet, dayPlan };
}

/** One line on the list shape when a flag changed it. */
function listNote(o: SandboxOptions): string {
	const parts = [
		o.listShape === 'cursor' ? 'list items carry id (cursor shape)' : '',
		o.pageCap ? `at most ${o.pageCap} records per page${o.pageOffsets === 'asked' ? ', pages numbered by the size asked' : ''}` : '',
		o.listQuotaPerMinute ? `at most ${o.listQuotaPerMinute} list requests a minute` : '',
		o.listOrder === 'recorded' ? 'lists in the order records were written' : '',
	].filter(Boolean);
	return parts.length === 0 ? '' : `\nLists: ${parts.join('; ')}.`;
}

async function main(): Promise<void> {
	const { options, quiet, dayPlan } = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const sandbox = await startSandbox({ ...options, log: quiet ? undefined : (line) => process.stdout.write(`  ${line}\n`) });
	const s = sandbox.seed;
	const u = sandbox.url;
	const planned = dayPlan === undefined ? undefined : applyStandardDayPlan(sandbox.bank, dayPlan || undefined);
	const virtuals = s.accounts.filter((a) => a.account_type === 'virtual').map((a) => a.account_number);
	const ext = s.externalAccounts.filter((_, i) => i >= 2 && (i - 2) % 3 === 0).slice(0, 3).map((e) => `${e.bank_code}/${e.account_number} (${e.account_name})`);
	process.stdout.write(`
Sandbox bank listening on ${u}  (started in ${Date.now() - started} ms, ${options.transactions ?? 200} generated transactions over the 120 days before ${s.historyEnd.slice(0, 10)}, seed ${options.seed ?? 42})
Not a real bank: everything lives in memory and is lost on exit.${listNote(options)}${planned ? `\nDay plan applied to ${planned.date}: ${planned.rows.length} expected payments (${planned.rows.map((r) => `${r.account_number} ${r.outcome}`).join(', ')}).` : ''}${options.deliverWebhooks === false ? '\nWebhooks are OFF (--no-webhooks): nothing is delivered; the BaaS Poll Trigger still sees every event.' : ''}

Integration API credential (n8n "BaaS API"):
  base URL        ${u}
  client_id       ${s.clientId}
  client_secret   ${s.clientSecret}
  webhook secret  ${s.webhookSecret}
Dashboard API credential (n8n "BaaS Dashboard API"):
  e-mail          ${s.dashboardEmail}
  password        ${s.dashboardPassword}

Accounts of ${s.businessName}:
  pool            ${s.poolAccountNumber}
  virtual         ${virtuals.join(', ')}
  blocked/closed  ${s.blockedAccountNumber} / ${s.closedAccountNumber}
  other business  ${s.foreignAccountNumber} (not yours: 44 / refused)
Own bank code ${s.ownBankCode}; other-bank accounts for name enquiry, e.g. ${ext.join(', ')}
Failing inter-bank beneficiaries: ${s.failingBeneficiaries.join(', ')}   Failing BVN/NIN: ${s.failingIdentities.join(', ')}

Control routes (not part of the API):
  curl -s ${u}/__sandbox/seed
  curl -s ${u}/__sandbox/ledger
  curl -s -X POST ${u}/__sandbox/collections -H 'content-type: application/json' -d '{"account_number":"${virtuals[0]}","amount":"2500.00","sender_name":"Jane Doe"}'
  curl -s -X POST ${u}/__sandbox/faults -H 'content-type: application/json' -d '{"match":"get_account_balance","errorCode":"80","times":1}'
  curl -s -X DELETE ${u}/__sandbox/faults
  curl -s -X POST ${u}/__sandbox/settle
  curl -s -X POST ${u}/__sandbox/reset
Get a token:
  curl -s -X POST ${u}/api/v1/security/api/generate_token -H 'content-type: application/json' -d '{"client_id":"${s.clientId}","client_secret":"${s.clientSecret}"}'

Press Ctrl+C to stop.
`);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: stopping the sandbox bank\n`);
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
	process.stderr.write(`Sandbox failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});
