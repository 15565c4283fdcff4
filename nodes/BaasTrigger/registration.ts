/**
 * The trigger's registration with the bank (webhookMethods). The API can neither list, look up nor delete
 * webhooks, and a bank disables a URL whose deliveries keep failing (while n8n is down, say): nothing tells the
 * trigger. So a production activation always registers: checkExists answers false and create calls
 * create_webhook, at every activation and every start of n8n (measured on 1.123.81 and 2.41.1: n8n runs the
 * node's methods at start-up, once its stored webhook row is updated). That is one request per trigger per start;
 * registering a URL the bank already has updates its events and turns it back on (README assumption), and a bank
 * that kept a second copy would deliver twice, which the duplicate filter drops. What create() registered is kept
 * in the node's static data, to notice a change of n8n's public URL and for test URLs (`manual` mode), which are
 * registered only when they are not already.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHookFunctions, IWebhookFunctions, WorkflowActivateMode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { refuseRegistrationWithReadOnlyCredential } from '../common/actions/readOnly';
import { bankRequest } from '../common/transport/request';
import { registerLater, REGISTRATION_RETRY } from './registrationRetry';

const NO_SECRET_MESSAGE =
	'The BaaS API credential has no Webhook Secret: add the Webhook Secret from your bank dashboard (Settings → Webhooks) to the BaaS API credential, then activate the workflow again';

/** What register() keeps in the node's static data (beside the trigger's duplicate memory). */
const REGISTRATION_KEYS = ['webhookId', 'webhookUrl', 'events'] as const;

type SecretSource = IHookFunctions | IWebhookFunctions;

const secretIn = (credentials: ICredentialDataDecryptedObject): string =>
	typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';

/** The webhook secret of the credential, or '' when none is set. */
export async function webhookSecretOf(context: SecretSource): Promise<string> {
	return secretIn(await context.getCredentials('baasApi'));
}

/**
 * No activation with a read-only credential (registering is a change at the bank), nor without a secret: the
 * trigger could not tell the bank's events from forged ones. One read of the credential for both.
 */
async function requireRegistrableCredential(context: IHookFunctions): Promise<void> {
	const credentials = await context.getCredentials('baasApi');
	refuseRegistrationWithReadOnlyCredential(context, credentials);
	if (secretIn(credentials) === '') {
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

/** Activations of n8n starting up (multi-main: a new leader taking over), where no one sees an error. */
const STARTING_UP: ReadonlySet<WorkflowActivateMode> = new Set(['init', 'leadershipChange']);

const isProduction = (context: IHookFunctions) => context.getMode() !== 'manual';

/** Says in n8n's log that n8n's public URL moved since the bank was told, before the new one is registered. */
function warnOfMovedUrl(context: IHookFunctions, previous: unknown, url: string): void {
	if (typeof previous !== 'string' || previous === url) return;
	context.logger.warn(
		`BaaS Trigger "${context.getNode().name}": n8n's webhook URL changed from ${previous} to ${url}; registering ${url} with the bank (${previous} stays registered there: the bank API cannot delete a webhook)`,
	);
}

// Production: never, so that every activation and start registers (see above). A test URL: as create() stored it.
export async function registrationExists(this: IHookFunctions): Promise<boolean> {
	await requireRegistrableCredential(this);
	const url = this.getNodeWebhookUrl('default');
	if (url === undefined || isProduction(this)) return false;
	return isRegisteredAs(this.getWorkflowStaticData('node'), url, selectedEvents(this));
}

export async function register(this: IHookFunctions): Promise<boolean> {
	await requireRegistrableCredential(this);
	const url = this.getNodeWebhookUrl('default');
	const events = selectedEvents(this);
	if (url === undefined) {
		throw new NodeOperationError(this.getNode(), 'n8n did not provide a webhook URL for this trigger');
	}
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event in the Events parameter');
	}
	const stored = this.getWorkflowStaticData('node');
	if (!isProduction(this)) {
		await createWebhook(this, stored, url, events);
		return true;
	}
	warnOfMovedUrl(this, stored.webhookUrl, url);
	const attempt = async () => {
		await createWebhook(this, stored, url, events);
		this.logger.info(
			`BaaS Trigger "${this.getNode().name}": registered ${url} with the bank for ${events.join(', ')} (at every activation and start of n8n, so that a URL the bank disabled while n8n was unreachable is turned back on)`,
		);
	};
	if (!STARTING_UP.has(this.getActivationMode())) {
		await attempt();
		return true;
	}
	try {
		await attempt();
	} catch (error) {
		// No one would see the error, and n8n 2.x gives up on a failing start-up activation within 15 s.
		registerLater(stored, attempt);
		this.logger.warn(
			`BaaS Trigger "${this.getNode().name}": n8n started, but could not register ${url} with the bank (${(error as Error).message}). The workflow stays active and the trigger tries again, first after ${REGISTRATION_RETRY.firstWaitMs / 1000} s, then at most every ${REGISTRATION_RETRY.longestWaitMs / 1000} s, until the bank takes it; until then the bank may send no events here.`,
		);
	}
	return true;
}

async function createWebhook(context: IHookFunctions, stored: IDataObject, url: string, events: string[]): Promise<void> {
	const registered = await bankRequest<IDataObject | null>(context, 'createWebhook', { url, events }, { variant: 'api' });
	stored.webhookId = isRecord(registered) && registered.id !== undefined ? registered.id : null;
	stored.webhookUrl = url;
	stored.events = [...events];
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
