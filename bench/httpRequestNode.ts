/**
 * Benchmark 2: the same Get Balance reads through n8n's HTTP Request node as a user sets it up (POST, JSON body
 * from the item, Authorization header with a token pasted in, On Error: Continue so failed items are counted),
 * on an unlimited bank and on a rate-limited one; versus the BaaS node at its default settings.
 */
import { FIRST_READS_IN_FLIGHT, MOST_READS_IN_FLIGHT } from '../nodes/common/actions/commonFields';
import { registerNodeType } from '../test/engine/harness/nodeTypes';
import { runNode } from '../test/engine/harness/runNode';
import { balanceItems, balanceParameters } from './lib/balanceReads';
import type { BankFixture } from './lib/engine';
import { forgetToken, timedFreshRun, startRequestLog } from './lib/engine';
import { findNodesBase, loadHttpRequestNode } from './lib/nodesBase';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import type { Contender } from './lib/stats';
import { alternate, ratio, timed } from './lib/stats';

const HTTP_TYPE = 'n8n-nodes-base.httpRequest';
const HTTP_VERSION = 4.2;

const BALANCE = 'get_account_balance';

/** The bank of one run: every request `latencyMs` late and, if `perSecond`, balance reads beyond that many a second refused. */
interface BankSetting {
	latencyMs: number;
	perSecond?: number;
}

function setBank(fx: BankFixture, { latencyMs, perSecond }: BankSetting): void {
	fx.bank.clearFaults();
	fx.bank.addFault({ latencyMs });
	// Sign-in is not limited, so both contenders pay the same for it.
	if (perSecond) fx.bank.addFault({ match: BALANCE, rateLimit: { retryAfterSeconds: 1, perSecond } });
}

/** Balance reads the bank answered, and refused for its rate limit, since log position `from`. */
function bankCounts(fx: BankFixture, from: number) {
	const reads = fx.bank.requests().slice(from).filter((e) => e.path.endsWith(BALANCE));
	return { bankRequests: reads.length, refused: reads.filter((e) => e.status === 429).length };
}

async function token(fx: BankFixture): Promise<string> {
	const answer = await fetch(`${fx.bank.url}/api/v1/security/api/generate_token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: fx.bank.seed.clientId, client_secret: fx.bank.seed.clientSecret }),
	});
	return ((await answer.json()) as { data: { token: string } }).data.token;
}

function httpContender(fx: BankFixture, name: string, bank: BankSetting, items: object[]): Contender {
	return {
		name,
		run: async () => {
			setBank(fx, bank);
			const bearer = await token(fx);
			const from = await startRequestLog(fx);
			const { ms, value: run } = await timed(() =>
				runNode(fx.credentials, {
					nodeType: HTTP_TYPE,
					credentials: {},
					items: items as never,
					continueOnFail: true,
					parameters: {
						method: 'POST',
						url: `${fx.bank.url}/api/v1/account/api/${BALANCE}`,
						sendHeaders: true,
						headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${bearer}` }] },
						sendBody: true,
						contentType: 'json',
						specifyBody: 'keypair',
						bodyParameters: { parameters: [{ name: 'account_number', value: '={{ $json.account_number }}' }] },
						options: {},
					},
				}),
			);
			if (run.error) throw new Error(`${name}: ${run.error.message}`);
			const failed = run.json.filter((j) => j.error !== undefined || j.status !== true).length;
			return { ms, items: run.json.length, failed, ...bankCounts(fx, from) };
		},
	};
}

/** Why a BaaS run stopped, by contender (a stopped run counts every item failed). */
const stopped: Record<string, string[]> = {};

function baasContender(fx: BankFixture, name: string, bank: BankSetting, items: object[], concurrency?: number): Contender {
	return {
		name,
		run: async () => {
			setBank(fx, bank);
			forgetToken(fx);
			const { ms, run, from } = await timedFreshRun(fx, balanceParameters(concurrency), items);
			const failed = run.error ? items.length : run.json.filter((j) => j.error !== undefined).length;
			if (run.error) (stopped[name] ??= []).push(`${run.error.message ?? ''} ${run.error.description ?? ''}`.trim());
			return { ms, items: run.json.length, failed, ...bankCounts(fx, from) };
		},
	};
}

export async function httpRequestNode(
	fx: BankFixture,
	options: { items: number; latencyMs: number; repetitions: number; perSecond?: number },
): Promise<BenchResult> {
	const perSecond = options.perSecond ?? 50;
	const nodesBase = findNodesBase();
	if (!nodesBase) {
		return {
			benchmark: '2. Versus n8n\'s HTTP Request node',
			workload: 'skipped',
			rows: [],
			ratios: {},
			notes: ['n8n is not installed on this machine yet: run `npm run test:e2e` once (it installs n8n into ~/.cache/n8n-nodes-baas), then run this again'],
		};
	}
	const versioned = loadHttpRequestNode(nodesBase);
	registerNodeType(HTTP_TYPE, versioned.getNodeType(HTTP_VERSION));
	const items = balanceItems(fx, options.items);
	// On the rate-limited bank a run takes at least items / perSecond seconds whatever the client: half the items
	// show the same outcome (which items fail) in half the time, which keeps npm run bench under 10 minutes.
	const limitedItems = items.slice(0, Math.ceil(items.length / 2));
	const open: BankSetting = { latencyMs: options.latencyMs };
	const limited: BankSetting = { latencyMs: options.latencyMs, perSecond };
	try {
		const contenders: Contender[] = [
			baasContender(fx, `BaaS node (default: ${FIRST_READS_IN_FLIGHT} to ${MOST_READS_IN_FLIGHT} in flight) · unlimited`, open, items),
			httpContender(fx, 'HTTP Request node (default) · unlimited', open, items),
			baasContender(fx, `BaaS node (default) · ${perSecond} req/s limit`, limited, limitedItems),
			httpContender(fx, `HTTP Request node (default) · ${perSecond} req/s limit`, limited, limitedItems),
			baasContender(fx, 'BaaS node (concurrency 20) · unlimited', open, items, 20),
			baasContender(fx, `BaaS node (concurrency 20) · ${perSecond} req/s limit`, limited, limitedItems, 20),
		];
		const m = await alternate(contenders, options.repetitions);
		const [oursOpen, httpOpen, oursLimited, httpLimited, ours20Open, ours20Limited] = contenders.map((c) => m[c.name]);
		return {
			benchmark: '2. Versus n8n\'s HTTP Request node: Get Balance',
			workload: `${options.items} items (${limitedItems.length} on the rate-limited bank), sandbox latency ${options.latencyMs} ms; HTTP Request ${HTTP_VERSION} from ${nodesBase.replace(/.*\/n8n\//, 'n8n ').replace(/\/node_modules.*/, '')} with On Error: Continue, no batching (its default: all items at once); rate-limited bank: at most ${perSecond} balance reads per second, 429 + Retry-After: 1 beyond (the sandbox's rateLimit.perSecond); medians of ${options.repetitions}`,
			rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
			ratios: {
				'time BaaS/HTTP Request (unlimited)': ratio(oursOpen.ms, httpOpen.ms),
				'time BaaS/HTTP Request (rate-limited)': ratio(oursLimited.ms, httpLimited.ms),
				'time BaaS @20/HTTP Request (unlimited)': ratio(ours20Open.ms, httpOpen.ms),
			},
			targets: [
				target('time BaaS/HTTP Request at defaults, unlimited bank (faster: below 1)', ratio(oursOpen.ms, httpOpen.ms), 1),
				target('failed items, BaaS at defaults, rate-limited bank', oursLimited.failed, 0),
			],
			notes: [
				`failed items on the rate-limited bank: BaaS ${oursLimited.failed} (concurrency 20: ${ours20Limited.failed}), HTTP Request ${httpLimited.failed} of ${limitedItems.length}`,
				...Object.entries(stopped).map(([name, why]) => `${name}: ${why.length} run(s) stopped: ${why.join(' | ')}`),
			],
		};
	} finally {
		fx.bank.clearFaults();
	}
}
