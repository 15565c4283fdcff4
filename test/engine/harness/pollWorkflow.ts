/**
 * A workflow holding the BaaS (Polling) Trigger, polled the way n8n's PollTriggerExecutor polls it: each poll runs the
 * node's poll() through n8n-core's real PollContext; static data lives here as n8n keeps it in its database —
 * a successful poll's changes are saved, a failed poll's are discarded (n8n's staged cursor). As n8n's in-memory
 * scheduler does, one PollContext serves every scheduled poll of an activation; `restart()` (or the option
 * `restartEveryPoll`) builds a new Workflow and context from the saved copy, as an n8n restart or the durable
 * scheduler does.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeParameters, IWorkflowBase, WorkflowActivateMode, WorkflowExecuteMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { BaasPollTrigger } from '../../../nodes/BaasPollTrigger/BaasPollTrigger.node';
import { buildAdditionalData } from './additionalData';
import type { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes, PACKAGE_PREFIX, registerNodeType } from './nodeTypes';

export const POLL_TRIGGER_TYPE = `${PACKAGE_PREFIX}.baasPollTrigger`;
const pollTrigger = new BaasPollTrigger();
registerNodeType(POLL_TRIGGER_TYPE, pollTrigger);

export interface PollResult {
	items: INodeExecutionData[];
	json: IDataObject[];
	/** The error the poll failed with (n8n would report it and keep the saved static data). */
	error?: Error & { description?: string | null; context?: IDataObject };
	/** The poll assigned the node's static data (what n8n notices and saves); false: it left it as it was. */
	staticDataWritten?: boolean;
}

function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

export class PollingWorkflow {
	/** The static data as n8n's database holds it between polls. */
	saved: IDataObject = {};

	constructor(
		private readonly credentials: TestCredentialsHelper,
		private readonly parameters: IDataObject,
		private readonly credentialIds: Record<string, string> = { baasApi: 'api-1' },
		private readonly workflowId = 'wf-poll',
		private readonly options: { restartEveryPoll?: boolean; nodeName?: string; pollBudgetMs?: number } = {},
	) {}

	private activation?: { workflow: Workflow; context: PollContext };

	/** How n8n activated the workflow, as getActivationMode() tells the node: 'init' when n8n started with it active. */
	private activationMode: WorkflowActivateMode = 'activate';

	/**
	 * The next scheduled poll runs in a new Workflow and PollContext (n8n restarted, or the workflow re-activated);
	 * `activation`: 'init' for n8n starting with the workflow active.
	 */
	restart(activation: WorkflowActivateMode = 'activate'): void {
		this.activation = undefined;
		this.activationMode = activation;
	}

	/** Changes the node's parameters the way saving the workflow does (n8n re-activates it: a new context). */
	edit(parameters: IDataObject): void {
		Object.assign(this.parameters, parameters);
		this.restart();
	}

	private node(): INode {
		const credentials = Object.fromEntries(
			Object.entries(this.credentialIds).map(([type, id]) => [type, { id, name: `${type} ${id}` }]),
		);
		return {
			id: this.options.nodeName ? `poll-trigger-node-${this.options.nodeName}` : 'poll-trigger-node',
			name: this.options.nodeName ?? 'BaaS (Polling) Trigger',
			type: POLL_TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: this.parameters as INodeParameters,
			credentials,
		};
	}

	/** One poll: 'trigger' is a scheduled poll of the active workflow, 'manual' is Fetch Test Event. */
	async poll(mode: WorkflowExecuteMode = 'trigger'): Promise<PollResult> {
		if (mode === 'manual' || this.options.restartEveryPoll || this.activation === undefined) {
			const built = this.build(mode);
			if (mode === 'manual') return await this.run(built.workflow, built.context, mode);
			this.activation = built;
		}
		const { workflow, context } = this.activation;
		// n8n keeps only what a successful poll saved: start each poll from that copy.
		workflow.staticData = clone(this.saved) as typeof workflow.staticData;
		return await this.run(workflow, context, mode);
	}

	private build(mode: WorkflowExecuteMode): { workflow: Workflow; context: PollContext } {
		const node = this.node();
		const workflow = new Workflow({
			id: this.workflowId,
			name: 'poll test',
			nodes: [node],
			connections: {},
			active: mode !== 'manual',
			nodeTypes,
			staticData: clone(this.saved),
			settings: { executionOrder: 'v1' },
		});
		const workflowData = { id: this.workflowId, name: 'poll test', nodes: [node], connections: {}, active: true } as unknown as IWorkflowBase;
		const budgetMs = this.options.pollBudgetMs;
		const context =
			budgetMs === undefined
				? new PollContext(workflow, node, buildAdditionalData(this.credentials, workflowData), mode, this.activationMode)
				: // n8n 2.41's durable scheduler gives the poll a time budget (getPollBudgetMs, the last argument).
					new PollContext(workflow, node, buildAdditionalData(this.credentials, workflowData), mode, this.activationMode, undefined, undefined, undefined, undefined, undefined, () => budgetMs);
		return { workflow, context };
	}

	private async run(workflow: Workflow, context: PollContext, mode: WorkflowExecuteMode): Promise<PollResult> {
		try {
			const nodeData = () => (workflow.staticData as IDataObject)[`node:${this.options.nodeName ?? 'BaaS (Polling) Trigger'}`];
			const before = nodeData() as IDataObject | undefined;
			const streams = before?.streams;
			const output = await pollTrigger.poll.call(context);
			const after = nodeData() as IDataObject | undefined;
			const staticDataWritten = after !== before || after?.streams !== streams;
			if (mode !== 'manual') this.saved = clone(workflow.staticData as IDataObject);
			const items = output?.[0] ?? [];
			return { items, json: items.map((item) => item.json), staticDataWritten };
		} catch (error) {
			return { items: [], json: [], error: error as PollResult['error'] };
		}
	}
}

/** The references of emitted items (Whole Event or Event Data Only). */
export const referencesOf = (json: IDataObject[]) => json.map((item) => ((item.data ?? item) as IDataObject).reference_number as string);

/** `[event, reference]` of each emitted item. */
export const eventsOf = (json: IDataObject[]) => json.map((item) => [item.event as string, (item.data as IDataObject).reference_number as string]);

/**
 * n8n's clock under the test's control: only Date is faked (timers, sockets and the sandbox keep running), so a
 * test can jump 16 minutes between two polls. The sandbox bank shares this clock (its tokens and lockout too).
 */
export const fakeClock = {
	start(atMs = Date.now()): void {
		jest.useFakeTimers({
			now: atMs,
			doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'queueMicrotask', 'hrtime', 'performance'],
		});
	},
	advance(ms: number): void {
		jest.setSystemTime(Date.now() + ms);
	},
	stop(): void {
		jest.useRealTimers();
	},
};

/** Collects n8n's log lines (the Poll Trigger's warnings) instead of printing them. */
export function collectLogs(): string[] {
	const logged: string[] = [];
	beforeAll(() => {
		const logger = Container.get(Logger);
		for (const level of ['error', 'warn', 'info', 'debug'] as const) {
			jest.spyOn(logger, level).mockImplementation((message: string, _meta?: object) => {
				logged.push(`${level}: ${message}`);
			});
		}
	});
	afterAll(() => jest.restoreAllMocks());
	return logged;
}

/**
 * What a busy machine may add to a poll's wall time (scheduling, garbage collection) without the trigger being
 * at fault: several seconds. A 1 s case ran 1,047 ms at a load average of 9 on 2 cores against a 1 s bound.
 */
export const BUSY_MACHINE_MS = 5_000;
