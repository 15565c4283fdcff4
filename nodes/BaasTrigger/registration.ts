/**
 * The trigger's registration with the bank: create_webhook on activation (webhookMethods), and again at every
 * start of n8n when n8n's public URL is no longer the one the bank was given (followPublicUrl). Remembered in the
 * node's static data because the API can neither list, look up nor delete webhooks.
 */
import type { IDataObject, IHookFunctions, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';

import { bankRequest } from '../Baas/transport/request';

const NO_SECRET_MESSAGE =
	'The BaaS API credential has no Webhook Secret: add the Webhook Secret from your bank dashboard (Settings → Webhooks) to the BaaS API credential, then activate the workflow again';

/** What register() keeps in the node's static data (beside the trigger's duplicate memory). */
const REGISTRATION_KEYS = ['webhookId', 'webhookUrl', 'events'] as const;

/** The path of the trigger's one webhook (description.webhooks), under n8n's /webhook/<webhookId>/. */
export const WEBHOOK_PATH = 'webhook';

type SecretSource = IHookFunctions | IWebhookFunctions;
type RegistrationContext = IHookFunctions | ITriggerFunctions;

/** The webhook secret of the credential, or '' when none is set. */
export async function webhookSecretOf(context: SecretSource): Promise<string> {
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

export function selectedEvents(context: SecretSource | ITriggerFunctions): string[] {
	const events = context.getNodeParameter('events', []) as unknown;
	return Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
}

function sameEvents(stored: unknown, selected: string[]): boolean {
	if (!Array.isArray(stored) || stored.length !== selected.length) return false;
	const a = [...stored].map(String).sort();
	const b = [...selected].sort();
	return a.every((value, i) => value === b[i]);
}

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRegisteredAs(stored: IDataObject, url: string, events: string[]): boolean {
	return stored.webhookUrl === url && sameEvents(stored.events, events);
}

// Answers from what create() stored: the API can neither list nor look up webhooks.
export async function registrationExists(this: IHookFunctions): Promise<boolean> {
	await requireWebhookSecret(this);
	const url = this.getNodeWebhookUrl('default');
	return url !== undefined && isRegisteredAs(this.getWorkflowStaticData('node'), url, selectedEvents(this));
}

/** Tells the bank to deliver `events` to `url`, and remembers what it was told. */
async function registerWith(context: RegistrationContext, url: string, events: string[]): Promise<void> {
	const registered = await bankRequest<IDataObject | null>(context, 'createWebhook', { url, events }, { variant: 'api' });
	const stored = context.getWorkflowStaticData('node');
	stored.webhookId = isRecord(registered) && registered.id !== undefined ? registered.id : null;
	stored.webhookUrl = url;
	stored.events = [...events];
}

export async function register(this: IHookFunctions): Promise<boolean> {
	await requireWebhookSecret(this);
	const url = this.getNodeWebhookUrl('default');
	const events = selectedEvents(this);
	if (url === undefined) {
		throw new NodeOperationError(this.getNode(), 'n8n did not provide a webhook URL for this trigger');
	}
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event in the Events parameter');
	}
	await registerWith(this, url, events);
	return true;
}

/**
 * The production URL n8n serves this trigger at now. n8n gives a webhook URL only to webhook contexts; at start-up
 * the trigger runs in an activation (trigger) context, whose execution data holds the same webhook base URL that
 * n8n builds webhook URLs from. undefined when this n8n keeps it elsewhere.
 */
function productionUrlNow(context: ITriggerFunctions): string | undefined {
	const base = (context as unknown as { additionalData?: { webhookBaseUrl?: unknown } }).additionalData?.webhookBaseUrl;
	if (typeof base !== 'string' || base === '') return undefined;
	return NodeHelpers.getNodeWebhookUrl(base.replace(/\/+$/, ''), context.getWorkflow().id ?? '', context.getNode(), WEBHOOK_PATH, false);
}

/**
 * At every activation, start-up included: when n8n's public URL changed since the bank was told (a new domain, a
 * changed WEBHOOK_URL, another port), tell the bank the URL n8n serves now. n8n runs the webhook methods
 * (checkExists, create) only when a workflow is activated from the editor or the API, not when n8n starts: its
 * stored webhook makes it skip them. Without this, every event would go on to the old URL, silently.
 */
export async function followPublicUrl(this: ITriggerFunctions): Promise<void> {
	if (this.getMode() === 'manual') return;
	const name = this.getNode().name;
	const url = productionUrlNow(this);
	if (url === undefined) {
		this.logger.warn(
			`BaaS Trigger "${name}" could not read n8n's webhook URL at start-up, so it cannot tell whether the bank still has the right one. If n8n's URL changed, deactivate and activate the workflow (n8n 2.x: Unpublish, then Publish).`,
		);
		return;
	}
	const stored = this.getWorkflowStaticData('node');
	const events = selectedEvents(this);
	if (isRegisteredAs(stored, url, events) || events.length === 0) return;
	const previous = typeof stored.webhookUrl === 'string' ? stored.webhookUrl : undefined;
	this.logger.warn(
		previous === undefined
			? `BaaS Trigger "${name}": the bank has no record of ${url} for this trigger; registering it now`
			: `BaaS Trigger "${name}": n8n's webhook URL changed from ${previous} to ${url}; registering ${url} with the bank (${previous} stays registered there: the bank API cannot delete a webhook)`,
	);
	try {
		await registerWith(this, url, events);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `The bank could not be given this trigger's new URL ${url}`, {
			description: `${(error as Error).message}. Until it is, the bank delivers to ${previous ?? 'no URL of this trigger'}. n8n tries the activation again by itself; to try now, deactivate and activate the workflow.`,
		});
	}
}

// The API has no endpoint to delete or disable a webhook, so the URL stays registered at the bank.
export async function forgetRegistration(this: IHookFunctions): Promise<boolean> {
	const stored = this.getWorkflowStaticData('node');
	const url = typeof stored.webhookUrl === 'string' ? stored.webhookUrl : this.getNodeWebhookUrl('default');
	// Only the registration is forgotten: the events seen stay, so re-activating does not let a replay through.
	for (const key of REGISTRATION_KEYS) delete stored[key];
	this.logger.warn(
		`BaaS Trigger "${this.getNode().name}": ${url ?? 'the webhook URL'} stays registered at the bank, because the bank API has no endpoint to delete a webhook. The bank will keep sending events there; n8n refuses them while the workflow is inactive.`,
	);
	return true;
}
