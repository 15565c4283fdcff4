import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { baasSignIn } from '../common/credentialTest';
import { EVENTS_PROPERTY, EVENTS_SUBTITLE, optionsCollection, outputOption } from '../common/events';
import { BAAS_DESCRIPTION } from '../common/nodeDescription';
import { handleDelivery } from './delivery';
import { assertValidOptions, DEFAULT_WINDOW_MINUTES } from './options';
import { forgetRegistration, register, registrationExists } from './registration';
import { keepTryingToRegister } from './registrationRetry';

/** Thin shell: the form, the registration lifecycle (registration.ts) and delivery handling (delivery.ts). */
export class BaasTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BaaS Trigger',
		name: 'baasTrigger',
		icon: { light: 'file:baas.svg', dark: 'file:baas.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1. n8n evaluates an expression for every delivery to a version-1 webhook node (the Webhook
		// node v1's binaryData option): in n8n 2.x a first evaluation in a fresh isolate, 6 ms of the event loop.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: EVENTS_SUBTITLE,
		description: BAAS_DESCRIPTION,
		defaults: { name: 'BaaS Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The Test button of the credential (n8n asks the first node listing it with a testedBy).
		credentials: [{ name: 'baasApi', required: true, testedBy: 'baasSignIn' }],
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
				displayName:
					'Each delivery is checked against the Webhook Secret of the selected BaaS API credential; one without a valid signature is refused (401) and starts nothing',
				name: 'webhookSecretNotice',
				type: 'notice',
				default: '',
			},
			EVENTS_PROPERTY,
			optionsCollection([
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
				outputOption('The event kind, its data, when it was received and the delivery headers'),
			]),
		],
	};

	methods = {
		credentialTest: { baasSignIn },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				assertValidOptions(this);
				return await registrationExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await register.call(this);
			},
			// The API has no endpoint to delete or disable a webhook, so the URL stays registered at the bank.
			async delete(this: IHookFunctions): Promise<boolean> {
				return await forgetRegistration.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleDelivery.call(this);
	}

	/**
	 * Receives nothing (the bank's events come to webhook()), but n8n runs it for as long as the workflow is active,
	 * which serves twice. n8n 2.x re-publishes at start-up only workflows with a trigger held in memory: without it a
	 * webhook-only workflow would not be re-activated, and create() would not register its URL again at start-up.
	 * And a registration the bank could not take while n8n was starting is made again from here (registrationRetry.ts).
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		if (this.getMode() === 'manual') return {};
		return { closeFunction: keepTryingToRegister(this) };
	}

	/**
	 * With a trigger function n8n would run it, not pass the event on, when a test event arrives (n8n runs a node's
	 * execute function before its trigger function): hand on the items webhook() made, unchanged.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
