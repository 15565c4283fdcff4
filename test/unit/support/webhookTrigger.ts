import { createHmac } from 'node:crypto';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { handleDelivery } from '../../../nodes/BaasTrigger/delivery';

/** The signature header the bank sends: HMAC-SHA256 of the raw body with the webhook secret. */
export const signatureOf = (rawBody: Buffer, secret: string) => `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

export interface TriggerSetup {
	workflowId: string;
	/** What n8n's getCredentials returns for the trigger's credential, read on every call. */
	credential: () => IDataObject;
	/** The credential's id on the node; without it the node names no credential. */
	credentialId?: string;
}

/**
 * One BaaS Trigger's webhook(), with the slice of n8n's webhook context it reads. Its static data lives across
 * deliveries, as n8n keeps it for an active workflow.
 */
export function webhookTrigger({ workflowId, credential, credentialId }: TriggerSetup) {
	const staticData: IDataObject = {};
	let request: { rawBody: Buffer; headers: Record<string, string> } | undefined;
	let status = 200;
	const response = {
		status(code: number) {
			status = code;
			return response;
		},
		get statusCode() {
			return status;
		},
		json: () => response,
		// The trigger watches the answer's end to let a key go when n8n answers 5xx (the execution did not start).
		end: () => response,
	};
	const context = {
		getRequestObject: () => ({ ...request, readRawBody: async () => {} }),
		getResponseObject: () => response,
		getCredentials: async () => credential(),
		getNodeParameter: (name: string, fallback: unknown) => (name === 'events' ? ['COLLECTION_SUCCESS'] : fallback),
		getWorkflowStaticData: () => staticData,
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({
			id: 'trigger',
			name: 'BaaS Trigger',
			...(credentialId ? { credentials: { baasApi: { id: credentialId, name: 'BaaS API' } } } : {}),
		}),
		logger: { warn: () => {}, debug: () => {} },
	} as unknown as IWebhookFunctions;
	return {
		staticData,
		/** Delivers one request; returns the HTTP status answered and how many items the trigger emitted. */
		async deliver(delivery: { rawBody: Buffer; signature: string }) {
			request = { rawBody: delivery.rawBody, headers: { 'x-service-signature': delivery.signature } };
			status = 200;
			const result = await handleDelivery.call(context);
			return { status, emitted: result.workflowData?.[0]?.length ?? 0 };
		},
	};
}
