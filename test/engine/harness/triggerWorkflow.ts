/**
 * A workflow "BaaS Trigger → NoOp" served the way n8n's server serves it, reduced to what the trigger uses:
 * - activation / deactivation / "Listen for test event" run the node's webhookMethods through n8n-core's real
 *   HookContext (checkExists, then create when it answers false; delete on deactivation), then save the static
 *   data when it changed, as n8n's ActiveWorkflowManager does;
 * - a real HTTP server on 127.0.0.1 receives deliveries at the production (/webhook/…) and test (/webhook-test/…)
 *   URLs, hands each to the node's webhook() through n8n-core's real WebhookContext, answers as n8n does
 *   (the node's own answer, "Webhook call received", or "Workflow was started" for onReceived) and runs the
 *   execution with n8n-core's WorkflowExecute.
 * Static data lives here as n8n keeps it in its database: each request starts from the saved copy, and a
 * change is saved only after an execution (`workflowExecuteAfter` with new static data), never for a request
 * that started none. Test-mode static data is never saved.
 * The workflow's n8n objects (nodes, contexts, additional data) are built in triggerWorkflowParts.ts, the express
 * members n8n's webhook handling uses in expressShim.ts.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, IRun, Workflow, WorkflowExecuteMode } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import type { TestCredentialsHelper } from './credentialsHelper';
import { asExpress } from './expressShim';
import {
	hookContext,
	NEXT_NAME,
	serverAdditionalData,
	trigger,
	TRIGGER_NAME,
	triggerWorkflow,
	type TriggerSpec,
	webhookData,
} from './triggerWorkflowParts';

export interface TriggerExecution {
	mode: WorkflowExecuteMode;
	/** The trigger's output items. */
	items: INodeExecutionData[];
	json: IDataObject[];
	/** What the node after the trigger received. */
	nextJson: IDataObject[];
	run: IRun;
}

export interface ReceivedDelivery {
	url: string;
	status: number;
	/** The answer's body as sent. */
	answer: string;
	/** Whether an execution was started. */
	executed: boolean;
}

export interface TriggerWorkflowOptions {
	parameters: IDataObject;
	/** baasApi credential id in the helper. */
	credentialId?: string;
	/**
	 * n8n reads the body before calling a version-1 webhook node (and answers 422 itself when a body declared as
	 * application/json does not parse). false leaves it unread, so the node has to call readRawBody().
	 */
	preReadBody?: boolean;
}

function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

export class TriggerWorkflow {
	readonly workflowId = `wf-trigger-${randomUUID()}`;

	readonly webhookId = randomUUID();

	/** The workflow's static data as n8n's database holds it. */
	staticData: IDataObject = {};

	readonly executions: TriggerExecution[] = [];

	readonly received: ReceivedDelivery[] = [];

	active = false;

	private listening = false;

	private testStaticData: IDataObject = {};

	private readonly pending = new Set<Promise<unknown>>();

	private gate: Promise<void> | undefined;

	private releaseGate: (() => void) | undefined;

	/** Production starts still to fail (see failStarts). */
	private failingStarts = 0;

	private answerGate: Promise<void> | undefined;

	private releaseAnswers: (() => void) | undefined;

	/** Deliveries the trigger let through whose answer is held (see holdAnswers). */
	answersHeld = 0;

	/** Requests whose caller hung up before the answer was complete. */
	hungUp = 0;

	private constructor(
		private readonly credentials: TestCredentialsHelper,
		private readonly server: http.Server,
		private readonly base: string,
		public parameters: IDataObject,
		private readonly credentialId: string,
		private readonly preReadBody: boolean,
	) {}

	static async start(credentials: TestCredentialsHelper, options: TriggerWorkflowOptions): Promise<TriggerWorkflow> {
		const holder: { workflow?: TriggerWorkflow } = {};
		const server = http.createServer((req, res) => {
			const workflow = holder.workflow!;
			const handling = workflow.handle(req, res).catch((error: Error) => {
				if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ message: `test server: ${error.message}` }));
			});
			workflow.track(handling);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		holder.workflow = new TriggerWorkflow(
			credentials,
			server,
			`http://127.0.0.1:${port}`,
			options.parameters,
			options.credentialId ?? 'api-1',
			options.preReadBody ?? true,
		);
		return holder.workflow;
	}

	get productionUrl(): string {
		return `${this.base}/webhook/${this.webhookId}/webhook`;
	}

	get testUrl(): string {
		return `${this.base}/webhook-test/${this.webhookId}/webhook`;
	}

	/** Items of every execution so far, in order. */
	get items(): IDataObject[] {
		return this.executions.flatMap((execution) => execution.json);
	}

	/** Activating the workflow: checkExists, create when needed, then save static data (n8n's order). */
	async activate(): Promise<void> {
		const workflow = this.workflow(clone(this.staticData));
		const methods = trigger.webhookMethods.default;
		const context = this.hookContext(workflow, 'trigger', false);
		if (!(await methods.checkExists.call(context))) await methods.create.call(context);
		this.saveIfChanged(workflow);
		this.active = true;
	}

	/** Deactivating: delete, then save static data. */
	async deactivate(): Promise<void> {
		const workflow = this.workflow(clone(this.staticData));
		this.active = false;
		await trigger.webhookMethods.default.delete.call(this.hookContext(workflow, 'trigger', false));
		this.saveIfChanged(workflow);
	}

	/** "Listen for test event": registers the test URL; nothing of it is saved. */
	async listenForTest(): Promise<void> {
		const workflow = this.workflow(clone(this.staticData));
		const methods = trigger.webhookMethods.default;
		const context = this.hookContext(workflow, 'manual', true);
		if (!(await methods.checkExists.call(context))) await methods.create.call(context);
		this.testStaticData = clone(workflow.staticData as IDataObject);
		this.listening = true;
	}

	/**
	 * Makes executions wait (as a slow workflow or a busy queue does) until the returned function is called;
	 * static data is saved only when each execution ends, so deliveries meanwhile see the older copy.
	 */
	holdExecutions(): () => void {
		let open!: () => void;
		this.gate = new Promise<void>((resolve) => (open = resolve));
		this.releaseGate = () => {
			this.gate = undefined;
			this.releaseGate = undefined;
			open();
		};
		return this.releaseGate;
	}

	/**
	 * Holds n8n's answer to each delivery the trigger lets through until the returned function is called, as n8n
	 * does while it creates the execution (a database write, or a queue job) before answering "Workflow was
	 * started": the time in which a bank with a short time-out hangs up.
	 */
	holdAnswers(): () => void {
		let open!: () => void;
		this.answerGate = new Promise<void>((resolve) => (open = resolve));
		this.releaseAnswers = () => {
			this.answerGate = undefined;
			this.releaseAnswers = undefined;
			open();
		};
		return this.releaseAnswers;
	}

	/**
	 * The next `count` production executions fail to start after the trigger let the delivery through, as when
	 * n8n cannot create the execution or queue the job: n8n answers 500 and saves no static data.
	 */
	failStarts(count: number): void {
		this.failingStarts = count;
	}

	/** Waits until every request and execution in flight has finished. */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	async close(): Promise<void> {
		this.releaseGate?.();
		this.releaseAnswers?.();
		await this.idle();
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	private track(promise: Promise<unknown>) {
		this.pending.add(promise);
		void promise.finally(() => this.pending.delete(promise));
	}

	private get spec(): TriggerSpec {
		const { workflowId, webhookId, base, parameters, credentialId, active } = this;
		return { workflowId, webhookId, base, parameters, credentialId, active };
	}

	private workflow(staticData: IDataObject): Workflow {
		return triggerWorkflow(this.spec, staticData);
	}

	private hookContext(workflow: Workflow, mode: WorkflowExecuteMode, isTest: boolean) {
		return hookContext(this.credentials, this.spec, workflow, mode, isTest);
	}

	private saveIfChanged(workflow: Workflow) {
		if ((workflow.staticData as IDataObject).__dataChanged === true) this.staticData = clone(workflow.staticData as IDataObject);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = `${this.base}${req.url ?? ''}`;
		const record = (executed: boolean, answer: string) => this.received.push({ url, status: res.statusCode, answer, executed });
		const production = url === this.productionUrl && this.active;
		const test = url === this.testUrl && this.listening;
		if (req.method !== 'POST' || (!production && !test)) {
			const answer = JSON.stringify({ code: 404, message: `The requested webhook "${req.method} ${req.url}" is not registered.` });
			res.writeHead(404, { 'content-type': 'application/json' }).end(answer);
			record(false, answer);
			return;
		}
		res.once('close', () => {
			if (!res.writableFinished) this.hungUp++;
		});
		const { request, response } = asExpress(req, res);
		let answer = '';
		const end = res.end.bind(res) as (chunk?: unknown) => http.ServerResponse;
		res.end = ((chunk?: unknown) => {
			if (chunk !== undefined && typeof chunk !== 'function') answer = String(chunk);
			return end(chunk);
		}) as typeof res.end;

		if (this.preReadBody) {
			await request.readRawBody();
			if (request.contentType === 'application/json' && request.rawBody.length > 0) {
				try {
					request.body = JSON.parse(request.rawBody.toString('utf8'));
				} catch {
					response.status(422).json({ code: 422, message: 'Failed to parse request body' });
					record(false, answer);
					return;
				}
			}
		}

		const mode: WorkflowExecuteMode = production ? 'webhook' : 'manual';
		const workflow = this.workflow(clone(production ? this.staticData : this.testStaticData));
		const additionalData = serverAdditionalData(this.credentials, this.spec, { httpRequest: request as never, httpResponse: response as never });
		const node = workflow.getNode(TRIGGER_NAME)!;
		const context = new WebhookContext(workflow, node, additionalData, mode, webhookData(this.spec, additionalData, test), [], null);
		let result;
		try {
			result = await trigger.webhook.call(context);
		} catch {
			response.status(500).json({ code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
			record(false, answer);
			return;
		}
		if (result.workflowData === undefined) {
			if (!result.noWebhookResponse) response.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
			record(false, answer);
			return;
		}
		if (this.answerGate) {
			this.answersHeld++;
			await this.answerGate;
		}
		if (production && this.failingStarts > 0) {
			this.failingStarts--;
			response.status(500).json({ code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
			record(false, answer);
			return;
		}
		response.status(200).json({ message: 'Workflow was started' });
		record(true, answer);
		await this.execute(workflow, node, result.workflowData, mode);
		if (test) {
			// n8n stops listening after a test execution and removes the test webhook.
			this.listening = false;
			await trigger.webhookMethods.default.delete.call(this.hookContext(workflow, 'manual', true));
		}
	}

	private async execute(workflow: Workflow, node: INode, output: INodeExecutionData[][], mode: WorkflowExecuteMode) {
		if (this.gate) await this.gate;
		const additionalData = serverAdditionalData(this.credentials, this.spec);
		additionalData.hooks!.addHandler('workflowExecuteAfter', (_run, newStaticData) => {
			if (mode !== 'manual' && newStaticData) this.staticData = clone(newStaticData);
		});
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main: output }, source: null }] },
		});
		const run = await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
		const items = run.data.resultData.runData[TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
		const next = run.data.resultData.runData[NEXT_NAME]?.[0]?.data?.main?.[0] ?? [];
		this.executions.push({ mode, items, json: items.map((i) => i.json), nextJson: next.map((i) => i.json), run });
	}
}

