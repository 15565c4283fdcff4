import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { deliveryKey } from './deliveryKey';
import type { TriggerOptions } from './options';
import { duplicateWindowMs } from './options';
import { recentDeliveries } from './recentDeliveries';
import { selectedEvents, webhookSecretOf } from './registration';
import { recentSecrets } from './secretCache';
import { asStore, emptyStore, forgetKey, remember, wasSeen } from './seenStore';
import type { SignatureCheck } from './signature';
import { unusableHeader, verifySignature } from './signature';

/** Request headers copied into the output item, for routing and auditing downstream. */
const FORWARDED_HEADERS = ['x-service-event', 'x-service-delivery-id', 'user-agent', 'content-type'];

/** The parts of n8n's request object this trigger reads (an express Request at run time). */
interface RawRequest {
	rawBody?: Buffer;
	readRawBody(): Promise<void>;
	headers: Record<string, string | string[] | undefined>;
}

/** The parts of n8n's response object this trigger uses (an express Response at run time). */
interface Reply {
	status(code: number): Reply;
	json(body: IDataObject): unknown;
	statusCode: number;
	end: (...args: unknown[]) => unknown;
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
 * Calls `onServerError` when n8n answers this request with a server error (5xx): n8n does so, and only so, when
 * it could not start the execution (n8n's webhook helpers: "Workflow could not be started", "There was a
 * problem executing the workflow"). Read from the answer as n8n writes it, whether or not the bank still
 * listens: a bank that hangs up before the answer does not mean the execution did not start.
 */
function onServerErrorAnswer(res: Reply, onServerError: () => void): void {
	const end = res.end;
	if (typeof end !== 'function') return;
	res.end = function (this: unknown, ...args: unknown[]) {
		if (res.statusCode >= 500) onServerError();
		return end.apply(this, args);
	};
}

/**
 * True when this event was already let through within the window. Otherwise records it: in the node's static
 * data (saved by n8n once the execution this delivery starts was created; production only, so a test listener
 * never hides an event from the active workflow) and in this process's memory (for a copy arriving before that
 * save). Only when n8n answers with a server error (it failed to start the execution, and saves no static data)
 * does the memory let the key go, so the bank's retry runs instead of being dropped as a duplicate. A bank that
 * hangs up before the answer changes nothing: n8n may well have started the execution.
 */
function isDuplicate(context: IWebhookFunctions, res: Reply, key: string, options: TriggerOptions): boolean {
	const windowMs = duplicateWindowMs(context, options);
	const now = Date.now();
	const mode = context.getMode();
	const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id}:${mode}`;
	const persisted = mode !== 'manual';
	const stored = context.getWorkflowStaticData('node');
	const loaded = persisted ? asStore(stored.seenDeliveries) ?? emptyStore(now) : undefined;
	const seen = loaded && recentDeliveries.reconcile(scope, loaded, now, windowMs);
	if (recentDeliveries.has(scope, key, now, windowMs) || (seen !== undefined && wasSeen(seen, key, now, windowMs))) return true;
	recentDeliveries.remember(scope, key, now, windowMs);
	onServerErrorAnswer(res, () => {
		recentDeliveries.release(scope, key);
		if (seen !== undefined) forgetKey(seen, key);
	});
	if (seen !== undefined) {
		remember(seen, key, now, windowMs);
		// Assigned again: n8n notices changes to static data through its top-level properties.
		stored.seenDeliveries = seen as unknown as IDataObject;
		recentDeliveries.wrote(scope, seen);
	}
	return false;
}

type DeliveryCheck = SignatureCheck | { valid: false; reason: 'no webhook secret in the credential' };

function checkWith(secret: string, rawBody: Buffer, header: string | undefined): DeliveryCheck {
	// Fail closed: with no secret every delivery is refused (an empty key would make forgery trivial).
	return secret === '' ? { valid: false, reason: 'no webhook secret in the credential' } : verifySignature(rawBody, header, secret);
}

/**
 * The signature check (see secretCache.ts for why the credential is read so rarely): a header that cannot hold
 * a signature is refused without reading the credential; otherwise first the secret read recently, then, when
 * that does not accept the delivery and it was not read in the last REREAD_INTERVAL_MS, the credential as it
 * is now, one read shared by every request waiting for it.
 */
async function checkSignature(context: IWebhookFunctions, rawBody: Buffer, header: string | undefined): Promise<DeliveryCheck> {
	const unusable = unusableHeader(header);
	if (unusable !== undefined) return { valid: false, reason: unusable };
	const node = context.getNode();
	const credentialId = node.credentials?.baasApi?.id;
	// Per trigger as well as per credential: a secret n8n let one workflow read is never used for another.
	const scope = credentialId ? `${context.getWorkflow().id ?? ''}:${node.id}:${credentialId}` : undefined;
	if (scope === undefined) return checkWith(await webhookSecretOf(context), rawBody, header);
	const now = Date.now();
	const cached = recentSecrets.get(scope, now);
	if (cached !== undefined) {
		const check = checkWith(cached, rawBody, header);
		if (check.valid || recentSecrets.readRecently(scope, now)) return check;
	}
	const secret = await recentSecrets.read(scope, now, async () => await webhookSecretOf(context));
	return checkWith(secret, rawBody, header);
}

/** One delivery: verify the signature over the raw bytes, parse, filter by kind, drop duplicates, emit one item. */
export async function handleDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject() as unknown as RawRequest;
	const res = this.getResponseObject() as unknown as Reply;
	if (!req.rawBody) await req.readRawBody();
	const rawBody = req.rawBody ?? Buffer.alloc(0);

	const check = await checkSignature(this, rawBody, headerValue(req.headers['x-service-signature']));
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
		if (isDuplicate(this, res, deliveryKey(kind, data, rawBody), options)) return {};
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
