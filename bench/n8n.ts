/**
 * npm run bench:n8n: in the real n8n (the e2e stack: n8n installed once per machine, this package installed the
 * community way, the sandbox bank), the BaaS Trigger's production URL versus n8n's own Webhook node answering
 * the same signed deliveries. Both workflows are "trigger → No Operation"; rounds alternate between them.
 * BENCH_N8N_LINE=1|2 (default 2), BAAS_E2E_PORT_BASE moves the port (default 6300).
 */
import './lib/env';

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

import { LINES } from '../scripts/n8n/paths';
import { startStack } from '../test/e2e/support/stack';
import type { BenchResult } from './lib/report';
import { machine, printResult, saveResults } from './lib/report';
import type { Contender, Figures } from './lib/stats';
import { alternate, median, ratio } from './lib/stats';
import { signedDeliveries } from './triggerIntake';

const DELIVERIES = Number(process.env.BENCH_N8N_DELIVERIES ?? 200);
const IN_FLIGHT = 10;
const REPETITIONS = 3;

async function createActive(url: string, apiKey: string, name: string, trigger: object): Promise<string> {
	const headers = { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' };
	const created = await fetch(`${url}/api/v1/workflows`, {
		method: 'POST',
		headers,
		body: JSON.stringify({
			name,
			nodes: [
				{ id: randomUUID(), name: 'Trigger', position: [0, 0], ...trigger },
				{ id: randomUUID(), name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
			],
			connections: { Trigger: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		}),
	});
	if (!created.ok) throw new Error(`creating ${name}: HTTP ${created.status} ${await created.text()}`);
	const { id } = (await created.json()) as { id: string };
	const activated = await fetch(`${url}/api/v1/workflows/${id}/activate`, { method: 'POST', headers });
	if (!activated.ok) throw new Error(`activating ${name}: HTTP ${activated.status} ${await activated.text()}`);
	return id;
}

/**
 * CPU time of the n8n process, all threads, in ms (Linux /proc; undefined elsewhere). n8n 2.x builds its expression
 * isolates on other threads than the event loop, so this is what a delivery costs, steadier than deliveries/s on a
 * shared machine.
 */
function n8nCpuMs(pid: number | undefined): number | undefined {
	if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
}

function deliverTo(url: string, secret: string, tag: () => string, pid: number | undefined): Contender['run'] {
	return async () => {
		const deliveries = signedDeliveries(secret, DELIVERIES, tag());
		const cpuBefore = n8nCpuMs(pid);
		const latencies: number[] = [];
		let refused = 0;
		let next = 0;
		const started = process.hrtime.bigint();
		await Promise.all(
			Array.from({ length: IN_FLIGHT }, async () => {
				while (next < deliveries.length) {
					const delivery = deliveries[next++];
					const start = process.hrtime.bigint();
					const answer = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.rawBody });
					await answer.arrayBuffer();
					if (!answer.ok) refused++;
					latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
				}
			}),
		);
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		const cpuAfter = n8nCpuMs(pid);
		const figures: Figures = { deliveriesPerS: (DELIVERIES / ms) * 1000, 'median ms': median(latencies), refused };
		if (cpuBefore !== undefined && cpuAfter !== undefined) figures['n8n CPU ms/delivery'] = (cpuAfter - cpuBefore) / DELIVERIES;
		return figures;
	};
}

void (async () => {
	const line = LINES[process.env.BENCH_N8N_LINE === '1' ? '1' : '2'];
	const port = Number(process.env.BAAS_E2E_PORT_BASE ?? 6300);
	const m = machine();
	process.stdout.write(`# npm run bench:n8n — ${m.date}\nmachine: ${m.cpus}, ${m.memoryGb} GB, load ${m.loadavg.join(' ')}\n`);
	const stack = await startStack(line, port);
	try {
		const baasWebhookId = randomUUID();
		await createActive(stack.n8n.url, stack.apiKey, 'bench: BaaS Trigger', {
			type: 'n8n-nodes-baas.baasTrigger',
			// The version the editor adds (1 costs n8n an expression per delivery: BaasTrigger.node.ts).
			typeVersion: 1.1,
			webhookId: baasWebhookId,
			parameters: { events: ['COLLECTION_SUCCESS'], options: {} },
			credentials: { baasApi: { id: 'BaasApiSandbox01', name: 'BaaS API (sandbox)' } },
		});
		const webhookPath = `bench-${randomUUID().slice(0, 8)}`;
		await createActive(stack.n8n.url, stack.apiKey, 'bench: Webhook node', {
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
		});
		let round = 0;
		const tag = () => `n8n-${Date.now()}-${round++}`;
		const secret = stack.bank.seed.webhookSecret;
		const contenders: Contender[] = [
			{ name: 'BaaS Trigger (verifies the signature, drops duplicates)', run: deliverTo(`${stack.n8n.url}/webhook/${baasWebhookId}/webhook`, secret, tag, stack.n8n.process.pid) },
			{ name: 'n8n Webhook node (no signature check)', run: deliverTo(`${stack.n8n.url}/webhook/${webhookPath}`, secret, tag, stack.n8n.process.pid) },
		];
		const medians = await alternate(contenders, REPETITIONS);
		const [baas, webhook] = contenders.map((c) => medians[c.name]);
		const result: BenchResult = {
			benchmark: `Trigger intake in n8n ${line.version}: production URLs`,
			workload: `${DELIVERIES} signed COLLECTION_SUCCESS deliveries per round, ${IN_FLIGHT} in flight, each a different reference; workflows "trigger → No Operation", answer on receipt; medians of ${REPETITIONS} alternated rounds`,
			rows: Object.entries(medians).map(([contender, figures]) => ({ contender, figures })),
			ratios: {
				'deliveries/s BaaS Trigger / Webhook node': ratio(baas.deliveriesPerS, webhook.deliveriesPerS),
				...(baas['n8n CPU ms/delivery'] === undefined
					? {}
					: { 'n8n CPU per delivery BaaS Trigger / Webhook node': ratio(baas['n8n CPU ms/delivery'], webhook['n8n CPU ms/delivery']) }),
			},
		};
		printResult(result);
		process.stdout.write(`\nJSON summary: ${saveResults('bench-n8n', [result])}\n`);
	} finally {
		await stack.stop();
	}
})().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
