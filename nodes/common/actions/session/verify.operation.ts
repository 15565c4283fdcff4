import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankApiError } from '../../transport/errors';
import { asNodeError, responseCodeOf } from '../../transport/outcome';
import { bankRequestEnvelope } from '../../transport/request';
import { currentAccessToken } from '../../transport/session';
import { invalidInput, sessionTokenSchema } from '../../validation';
import { readOptions } from '../commonFields';

export const description: INodeProperties[] = [
	{
		displayName: 'Token',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'A dashboard session token (JWT) to check. Leave empty to check the session of this node\'s own credential. The token is never included in the output.',
	},
	readOptions(),
];

const EXPIRED_OR_INVALID = new Set(['41', '42']);

async function verify(context: IExecuteFunctions, token: string, itemIndex: number): Promise<IDataObject> {
	const envelope = await bankRequestEnvelope<IDataObject>(context, 'verifySession', { token }, { itemIndex, variant: 'web', replaceRefusedToken: false });
	return { valid: true, message: envelope.message, ...envelope.data };
}

/** Who a dashboard session belongs to (user, e-mail, role) and when it expires; never outputs the token. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const raw = this.getNodeParameter('token', itemIndex, '') as unknown;
	if (raw !== undefined && raw !== null && String(raw).trim() !== '') {
		const parsed = sessionTokenSchema.safeParse(raw);
		// The value is not repeated in the message: it may be a real token.
		if (!parsed.success) throw invalidInput(this, itemIndex, 'Token', parsed.error.issues[0].message);
		const given = parsed.data;
		try {
			return await verify(this, given, itemIndex);
		} catch (error) {
			const code = responseCodeOf(error);
			if (!code || !EXPIRED_OR_INVALID.has(code)) throw asNodeError(this.getNode(), error, itemIndex);
			const refused = bankApiError(this.getNode(), { responseCode: code, message: 'The given session token is not valid or has expired' }, itemIndex);
			refused.description = 'Check the token in the Token field, or leave it empty to check the credential\'s own session.';
			throw refused;
		}
	}
	const own = await currentAccessToken(this, { itemIndex, variant: 'web' });
	try {
		return await verify(this, own, itemIndex);
	} catch (error) {
		// The held session expired or was refused: sign in again (unless already done) and verify the new one once.
		if (!EXPIRED_OR_INVALID.has(responseCodeOf(error) ?? '')) throw asNodeError(this.getNode(), error, itemIndex);
		return await verify(this, await currentAccessToken(this, { itemIndex, variant: 'web', replacing: own }), itemIndex);
	}
}
