/**
 * Benchmark 4 (engine): trigger intake. N signed deliveries, each a different event, handed to the BaaS
 * Trigger's webhook() through n8n-core's WebhookContext, with the workflow's static data loaded before and saved
 * after each delivery as n8n does; versus HMAC verification alone on the same requests.
 */
import { createHmac } from 'node:crypto';

import { WebhookContext } from 'n8n-core';
import type { IDataObject, INode, IWebhookData, IWebhookDescription, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { BaasTrigger } from '../nodes/BaasTrigger/BaasTrigger.node';
import { verifySignature } from '../nodes/BaasTrigger/signature';
import { buildAdditionalData } from '../test/engine/harness/additionalData';
import { API } from '../test/engine/harness/bankFixture';
import { nodeTypes, PACKAGE_PREFIX, registerNodeType } from '../test/engine/harness/nodeTypes';
import type { BankFixture } from './lib/engine';
import type { BenchResult } from './lib/report';
import { target } from './lib/report';
import type { Contender } from './lib/stats';
import { alternate, ratio } from './lib/stats';

const TYPE = `${PACKAGE_PREFIX}.baasTrigger`;
const trigger = new BaasTrigger();
registerNodeType(TYPE, trigger);

interface Delivery {
	rawBody: Buffer;
	headers: Record<string, string>;
}

export function signedDeliveries(secret: string, count: number, tag: string): Delivery[] {
	return Array.from({ length: count }, (_, i) => {
		const rawBody = Buffer.from(
			JSON.stringify({
				event: 'COLLECTION_SUCCESS',
				data: { reference_number: `BENCH-${tag}-${i}`, amount: '2500.00', account_number: '0823100001', status: 'successful' },
				created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
			}),
		);
		const signature = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
		return { rawBody, headers: { 'content-type': 'application/json', 'x-service-signature': signature } };
	});
}

function workflowFor(id: string, node: INode, staticData: IDataObject) {
	return new Workflow({ id, name: 'bench trigger', nodes: [node], connections: {}, active: true, nodeTypes, staticData, settings: {} });
}

/** Per-delivery milliseconds of webhook() over `deliveries`, static data reloaded and saved as n8n does. */
async function throughWebhook(fx: BankFixture, deliveries: Delivery[], runId: string): Promise<{ perDelivery: number[]; staticBytes: number; executions: number }> {
	const node: INode = {
		id: 'trigger',
		name: 'BaaS Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: runId,
		parameters: { events: ['COLLECTION_SUCCESS'] },
		credentials: { baasApi: { id: API.baasApi, name: 'BaaS API' } },
	};
	const workflowData = { id: runId, name: 'bench trigger', nodes: [node], connections: {} } as unknown as IWorkflowBase;
	let saved = '{}';
	const perDelivery: number[] = [];
	let executions = 0;
	for (const delivery of deliveries) {
		const start = process.hrtime.bigint();
		// n8n loads the workflow (with its static data) from the database for each production request.
		const workflow = workflowFor(runId, node, JSON.parse(saved) as IDataObject);
		const additionalData = buildAdditionalData(fx.credentials, workflowData);
		const request = { ...delivery, body: undefined, readRawBody: async () => {} };
		// n8n answers 200 once the execution starts; the trigger's close listener then has nothing to undo.
		const response = { statusCode: 200, writableFinished: true, status: () => response, json: () => response, once: () => response };
		Object.assign(additionalData, { httpRequest: request, httpResponse: response });
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: `${runId}/webhook`,
			webhookDescription: trigger.description.webhooks![0] as IWebhookDescription,
			workflowId: runId,
			workflowExecuteAdditionalData: additionalData,
			webhookId: runId,
		};
		const context = new WebhookContext(workflow, workflow.getNode(node.name)!, additionalData, 'webhook', webhookData, [], null);
		const result = await trigger.webhook.call(context);
		if (result.workflowData) {
			executions++;
			// ... and saves the static data after the execution the delivery started.
			if ((workflow.staticData as IDataObject).__dataChanged) saved = JSON.stringify(workflow.staticData);
		}
		perDelivery.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	return { perDelivery, staticBytes: Buffer.byteLength(saved), executions };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function triggerIntake(fx: BankFixture, options: { deliveries: number; repetitions: number }): Promise<BenchResult> {
	const secret = fx.bank.seed.webhookSecret;
	const n = options.deliveries;
	const window = Math.min(100, Math.floor(n / 2));
	let run = 0;
	const contenders: Contender[] = [
		{
			name: 'webhook()',
			run: async () => {
				run++;
				const deliveries = signedDeliveries(secret, n, `w${run}`);
				const started = process.hrtime.bigint();
				const { perDelivery, staticBytes, executions } = await throughWebhook(fx, deliveries, `bench-trigger-${Date.now()}-${run}`);
				const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
				if (executions !== n) throw new Error(`webhook(): ${executions} of ${n} deliveries started an execution`);
				return {
					deliveriesPerS: (n / totalMs) * 1000,
					[`ms/delivery 1–${window}`]: mean(perDelivery.slice(0, window)),
					[`ms/delivery ${n - window + 1}–${n}`]: mean(perDelivery.slice(n - window)),
					staticDataKb: staticBytes / 1024,
				};
			},
		},
		{
			name: 'HMAC alone',
			run: async () => {
				run++;
				const deliveries = signedDeliveries(secret, n, `h${run}`);
				const perDelivery: number[] = [];
				const started = process.hrtime.bigint();
				for (const d of deliveries) {
					const start = process.hrtime.bigint();
					if (!verifySignature(d.rawBody, d.headers['x-service-signature'], secret).valid) throw new Error('HMAC: invalid');
					perDelivery.push(Number(process.hrtime.bigint() - start) / 1e6);
				}
				const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
				return {
					deliveriesPerS: (n / totalMs) * 1000,
					[`ms/delivery 1–${window}`]: mean(perDelivery.slice(0, window)),
					[`ms/delivery ${n - window + 1}–${n}`]: mean(perDelivery.slice(n - window)),
				};
			},
		},
	];
	const m = await alternate(contenders, options.repetitions);
	const ours = m['webhook()'];
	const late = ours[`ms/delivery ${n - window + 1}–${n}`];
	const early = ours[`ms/delivery 1–${window}`];
	const ratios = {
		'late/early deliveries (webhook())': ratio(late, early),
		'deliveries/s HMAC alone / webhook()': ratio(m['HMAC alone'].deliveriesPerS, ours.deliveriesPerS),
	};
	return {
		benchmark: '4. Trigger intake: BaaS Trigger webhook()',
		workload: `${n} signed COLLECTION_SUCCESS deliveries, each a different reference, duplicate dropping on (default window); static data loaded before and saved after each delivery, as n8n does; medians of ${options.repetitions}`,
		rows: Object.entries(m).map(([contender, figures]) => ({ contender, figures })),
		ratios,
		targets: [target(`cost of deliveries ${n - window + 1}–${n} / 1–${window}`, ratios['late/early deliveries (webhook())'], 1.5)],
		notes: [`static data after ${n} deliveries: ${ours.staticDataKb.toFixed(1)} KB (the duplicate memory n8n stores with the workflow)`],
	};
}
