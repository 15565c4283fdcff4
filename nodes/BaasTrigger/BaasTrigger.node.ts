import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { bankRequest } from '../Baas/transport/request';
import { deliveryKey, prune, recentDeliveries } from './dedup';
import { verifySignature } from './signature';

/** The event kinds of the contract's Events section. */
export const EVENT_KINDS = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'] as const;

const DEFAULT_WINDOW_MINUTES = 60;

/** Request headers copied into the output item, for routing and auditing downstream. */
const FORWARDED_HEADERS = ['x-service-event', 'x-service-delivery-id', 'user-agent', 'content-type'];

const NO_SECRET_MESSAGE =
	'The BaaS API credential has no Webhook Secret: add the Webhook Secret from your bank dashboard (Settings → Webhooks) to the BaaS API credential, then activate the workflow again';

interface TriggerOptions {
	dropDuplicates?: boolean;
	duplicateWindowMinutes?: number;
	output?: 'event' | 'data';
}

/** The parts of n8n's request object this trigger reads (an express Request at run time). */
interface RawRequest {
	rawBody?: Buffer;
	readRawBody(): Promise<void>;
	headers: Record<string, string | string[] | undefined>;
}

/** The parts of n8n's response object this trigger writes (an express Response at run time). */
interface Reply {
	status(code: number): Reply;
	json(body: IDataObject): unknown;
}

type SecretSource = IHookFunctions | IWebhookFunctions;

/** The webhook secret of the credential, or '' when none is set. */
async function webhookSecretOf(context: SecretSource): Promise<string> {
	const credentials = await context.getCredentials('baasApi');
	const secret = credentials.webhookSecret;
	return typeof secret === 'string' ? secret : '';
}

/** No secret, no activation: the trigger could not tell the bank's events from forged ones. */
async function requireWebhookSecret(context: IHookFunctions): Promise<void> {
	if ((await webhookSecretOf(context)) === '') {
		throw new NodeOperationError(context.getNode(), NO_SECRET_MESSAGE, {
			description:
				'The bank signs every delivery with this secret; without it the trigger cannot verify them and would refuse every event.',
		});
	}
}

function selectedEvents(context: SecretSource): string[] {
	const events = context.getNodeParameter('events', []) as unknown;
	return Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
}

function sameEvents(stored: unknown, selected: string[]): boolean {
	if (!Array.isArray(stored) || stored.length !== selected.length) return false;
	const a = [...stored].map(String).sort();
	const b = [...selected].sort();
	return a.every((value, i) => value === b[i]);
}

function headerValue(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

function refuse(res: Reply, status: number, message: string): IWebhookResponseData {
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

function eventKindOf(body: IDataObject): string | undefined {
	const raw = body.event ?? body.event_type ?? body.type;
	return typeof raw === 'string' && raw.trim() !== '' ? raw.trim().toUpperCase() : undefined;
}

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when this event was already let through within the window. Otherwise records it: in the node's static
 * data (saved by n8n with the execution this delivery starts; production only, so a test listener never
 * hides an event from the active workflow) and in this process's memory (for a copy arriving before that save).
 */
function isDuplicate(context: IWebhookFunctions, key: string, options: TriggerOptions): boolean {
	const minutes = options.duplicateWindowMinutes ?? DEFAULT_WINDOW_MINUTES;
	const windowMs = Math.max(0, minutes) * 60_000;
	const now = Date.now();
	const mode = context.getMode();
	const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id}:${mode}`;
	const persisted = mode !== 'manual';
	const stored = context.getWorkflowStaticData('node');
	const seen = persisted ? prune(stored.seenDeliveries, now, windowMs) : {};
	if (recentDeliveries.has(scope, key, now, windowMs) || seen[key] !== undefined) return true;
	recentDeliveries.remember(scope, key, now);
	if (persisted) {
		seen[key] = now;
		// Assigned as a whole: n8n notices changes to static data through its top-level properties.
		stored.seenDeliveries = seen;
	}
	return false;
}

export class BaasTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BaaS Trigger',
		name: 'baasTrigger',
		icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description: 'Starts the workflow when the bank reports a collection or a transfer outcome',
		defaults: { name: 'BaaS Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'baasApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description: 'The bank events that start this workflow. Select at least one.',
				options: [
					{
						name: 'Collection Success',
						value: 'COLLECTION_SUCCESS',
						description: 'An inbound payment landed on one of your accounts',
					},
					{
						name: 'Transfer Failed',
						value: 'TRANSFER_FAILED',
						description: 'A transfer failed: no funds were debited, or the debit was reversed',
					},
					{
						name: 'Transfer Success',
						value: 'TRANSFER_SUCCESS',
						description: 'A transfer reached the beneficiary',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Drop Duplicate Deliveries',
						name: 'dropDuplicates',
						type: 'boolean',
						default: true,
						description:
							'Whether to ignore a second delivery of the same event (same kind and reference) within the window. The bank may deliver an event more than once; on by default.',
					},
					{
						displayName: 'Duplicate Window (Minutes)',
						name: 'duplicateWindowMinutes',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_WINDOW_MINUTES,
						description: 'How long an event is remembered for dropping duplicates. Used when Drop Duplicate Deliveries is on.',
					},
					{
						displayName: 'Output',
						name: 'output',
						type: 'options',
						options: [
							{
								name: 'Whole Event',
								value: 'event',
								description: 'The event kind, its data, when it was received and the delivery headers',
							},
							{
								name: 'Event Data Only',
								value: 'data',
								description: 'Only the record the event is about (the transaction or transfer)',
							},
						],
						default: 'event',
						description: 'What each output item contains',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			// Answers from what create() stored: the API can neither list nor look up webhooks.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await requireWebhookSecret(this);
				const stored = this.getWorkflowStaticData('node');
				const url = this.getNodeWebhookUrl('default');
				return url !== undefined && stored.webhookUrl === url && sameEvents(stored.events, selectedEvents(this));
			},

			async create(this: IHookFunctions): Promise<boolean> {
				await requireWebhookSecret(this);
				const url = this.getNodeWebhookUrl('default');
				const events = selectedEvents(this);
				if (url === undefined) {
					throw new NodeOperationError(this.getNode(), 'n8n did not provide a webhook URL for this trigger');
				}
				if (events.length === 0) {
					throw new NodeOperationError(this.getNode(), 'Select at least one event in the Events parameter');
				}
				const registered = await bankRequest<IDataObject | null>(this, 'createWebhook', { url, events }, { variant: 'api' });
				const stored = this.getWorkflowStaticData('node');
				stored.webhookId = isRecord(registered) && registered.id !== undefined ? registered.id : null;
				stored.webhookUrl = url;
				stored.events = [...events];
				return true;
			},

			// The API has no endpoint to delete or disable a webhook, so the URL stays registered at the bank.
			async delete(this: IHookFunctions): Promise<boolean> {
				const stored = this.getWorkflowStaticData('node');
				const url = typeof stored.webhookUrl === 'string' ? stored.webhookUrl : this.getNodeWebhookUrl('default');
				for (const key of Object.keys(stored)) delete stored[key];
				this.logger.warn(
					`BaaS Trigger "${this.getNode().name}": ${url ?? 'the webhook URL'} stays registered at the bank, because the bank API has no endpoint to delete a webhook. The bank will keep sending events there; n8n refuses them while the workflow is inactive.`,
				);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as unknown as RawRequest;
		const res = this.getResponseObject() as unknown as Reply;
		if (!req.rawBody) await req.readRawBody();
		const rawBody = req.rawBody ?? Buffer.alloc(0);

		// Fail closed: with no secret every delivery is refused (an empty key would make forgery trivial).
		const secret = await webhookSecretOf(this);
		const check = secret === ''
			? ({ valid: false, reason: 'no webhook secret in the credential' } as const)
			: verifySignature(rawBody, headerValue(req.headers['x-service-signature']), secret);
		if (!check.valid) {
			this.logger.warn(`BaaS Trigger "${this.getNode().name}" refused a delivery: signature ${check.reason}`);
			return refuse(res, 401, 'invalid signature');
		}

		let body: unknown;
		try {
			body = JSON.parse(rawBody.toString('utf8'));
		} catch {
			return refuse(res, 400, 'body is not valid JSON');
		}
		if (!isRecord(body)) return refuse(res, 400, 'body is not a JSON object');

		const kind = eventKindOf(body);
		if (kind === undefined || !selectedEvents(this).includes(kind)) {
			this.logger.debug(`BaaS Trigger "${this.getNode().name}" acknowledged a ${kind ?? 'kindless'} event it does not listen to`);
			return {};
		}

		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const data = body.data;
		if (options.dropDuplicates !== false) {
			const key = deliveryKey(kind, data, headerValue(req.headers['x-service-delivery-id']));
			if (key !== undefined && isDuplicate(this, key, options)) return {};
		}

		const json: IDataObject =
			options.output === 'data'
				? isRecord(data) ? { ...data } : { data: data as IDataObject }
				: {
						...body,
						event: kind,
						data: data as IDataObject,
						receivedAt: new Date().toISOString(),
						headers: Object.fromEntries(
							FORWARDED_HEADERS.map((name) => [name, headerValue(req.headers[name])]).filter(([, value]) => value !== undefined),
						),
					};
		const item: INodeExecutionData = { json };
		return { workflowData: [[item]] };
	}
}
