/**
 * The trigger's registration with the bank (webhookMethods): create_webhook on activation, remembered in the
 * node's static data because the API can neither list, look up nor delete webhooks. n8n runs checkExists at every
 * activation, start-up included (measured on 1.123.81 and 2.41.1: its stored webhook row is updated, then the
 * node's methods run), so a change of n8n's public URL is noticed there and the new URL registered.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bankRequest } from '../Baas/transport/request';

const NO_SECRET_MESSAGE =
	'The BaaS API credential has no Webhook Secret: add the Webhook Secret from your bank dashboard (Settings → Webhooks) to the BaaS API credential, then activate the workflow again';

/** What register() keeps in the node's static data (beside the trigger's duplicate memory). */
const REGISTRATION_KEYS = ['webhookId', 'webhookUrl', 'events'] as const;

type SecretSource = IHookFunctions | IWebhookFunctions;

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

export function selectedEvents(context: SecretSource): string[] {
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

/** Says in n8n's log that n8n's public URL moved since the bank was told, before the new one is registered. */
function warnOfMovedUrl(context: IHookFunctions, previous: unknown, url: string): void {
	if (typeof previous !== 'string' || previous === url) return;
	context.logger.warn(
		`BaaS Trigger "${context.getNode().name}": n8n's webhook URL changed from ${previous} to ${url}; registering ${url} with the bank (${previous} stays registered there: the bank API cannot delete a webhook)`,
	);
}

// Answers from what create() stored: the API can neither list nor look up webhooks.
export async function registrationExists(this: IHookFunctions): Promise<boolean> {
	await requireWebhookSecret(this);
	const stored = this.getWorkflowStaticData('node');
	const url = this.getNodeWebhookUrl('default');
	if (url === undefined) return false;
	if (isRegisteredAs(stored, url, selectedEvents(this))) return true;
	// Production only: a test URL is registered beside the production one, never instead of it.
	if (this.getMode() !== 'manual') warnOfMovedUrl(this, stored.webhookUrl, url);
	return false;
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
	const registered = await bankRequest<IDataObject | null>(this, 'createWebhook', { url, events }, { variant: 'api' });
	const stored = this.getWorkflowStaticData('node');
	stored.webhookId = isRecord(registered) && registered.id !== undefined ? registered.id : null;
	stored.webhookUrl = url;
	stored.events = [...events];
	return true;
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
