import type { ICredentialDataDecryptedObject, IExecuteFunctions, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiVariant } from '../transport/session';
import { credentialView, variantOf } from '../transport/session';
import { refusedError } from './writeOutcome';

/**
 * A credential's Read Only switch (credentials/common.ts): every write made with it is refused before any
 * request, whichever node or tool carries it. For people who let an AI agent or an MCP client near the money.
 */

const CREDENTIAL_LABEL: Record<ApiVariant, string> = { api: 'BaaS API', web: 'BaaS Dashboard API' };

/** Whether the credential's values mark it read-only. A credential saved before the field existed has none: it may write. */
export function isReadOnly(data: ICredentialDataDecryptedObject): boolean {
	// A boolean field; 'true' too, so that a value arriving as text (an expression, an import) is never read as "may write".
	return data.readOnly === true || data.readOnly === 'true';
}

function credentialNamed(variant: ApiVariant, name: string): string {
	return `the ${CREDENTIAL_LABEL[variant]} credential${name ? ` "${name}"` : ''}`;
}

/**
 * Refuses item `itemIndex` of a write (`what`: "Transfer → Create") when the credential it is made with is
 * read-only. Every write of the action nodes is offered by one API only, the node's Authentication (router.ts
 * has refused any other), so that credential is the one the write is made with. Reads the credential as the
 * request would (once per execution, no token, no request).
 */
export async function refuseWriteWithReadOnlyCredential(context: IExecuteFunctions, itemIndex: number, what: string): Promise<void> {
	const variant = variantOf(context);
	const view = await credentialView(context, variant, itemIndex);
	if (!isReadOnly(view.data)) return;
	const credential = credentialNamed(variant, view.name);
	// refusedError puts the advice into the message too: a model calling the node as a tool reads only that.
	const message = `${what} was refused: ${credential} is read-only, so nothing that changes something at the bank is made with it. Nothing was sent to the bank.`;
	throw refusedError(
		context.getNode(),
		itemIndex,
		message,
		'To make this change, have a person approve it and run it with a credential that may write (Read Only off).',
	);
}

/**
 * The BaaS Trigger's activation registers a webhook with the bank (create_webhook), which a read-only credential
 * does not allow: refused before that request, saying what to use instead.
 */
export function refuseRegistrationWithReadOnlyCredential(context: IHookFunctions, data: ICredentialDataDecryptedObject): void {
	if (!isReadOnly(data)) return;
	const credential = credentialNamed('api', context.getNode().credentials?.baasApi?.name ?? '');
	const message = `The BaaS Trigger cannot be activated with ${credential}: it is read-only, and activating registers this workflow's webhook URL with the bank (a change at the bank). Nothing was sent to the bank. Use the BaaS (Polling) Trigger, which only reads, or select a BaaS API credential that may write (Read Only off).`;
	throw new NodeOperationError(context.getNode(), message, {
		description: `Read Only is set on ${credential}, for AI agents and MCP clients: nothing that changes something at the bank is made with it.`,
	});
}
