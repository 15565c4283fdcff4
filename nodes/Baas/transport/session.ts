import { NodeApiError } from 'n8n-workflow';

import type { BankContext } from './request';
import { bankRequest, CREDENTIAL_FOR_VARIANT, variantOf } from './request';
import type { ApiVariant, RouteName } from './routes';

/** A cheap authenticated read per API: it makes n8n sign in (or refresh an expired token) before the token is read. */
const WARM_UP: Record<ApiVariant, { route: RouteName; body?: Record<string, never> }> = {
	api: { route: 'validateToken' },
	web: { route: 'getTotalBalance', body: {} },
};

export interface AccessTokenOptions {
	variant?: ApiVariant;
	itemIndex?: number;
	/** A token known to be stale: when the credential still holds it, a fresh one is obtained first. */
	replacing?: string;
}

/**
 * The access token n8n currently holds for the node's credential (the hidden `accessToken` field), for the one
 * operation whose body must carry it (Session → Verify). When none is stored yet, or the stored one is the stale
 * token given in `replacing`, an authenticated read runs first so that n8n signs in and saves a fresh token.
 * The token must never be put into output, errors or logs.
 */
export async function currentAccessToken(context: BankContext, options: AccessTokenOptions = {}): Promise<string> {
	const variant = options.variant ?? variantOf(context);
	const credentialType = CREDENTIAL_FOR_VARIANT[variant];
	const stored = async () => {
		const token = (await context.getCredentials(credentialType, options.itemIndex)).accessToken;
		return typeof token === 'string' ? token : '';
	};
	let token = await stored();
	if (token === '' || token === options.replacing) {
		const warmUp = WARM_UP[variant];
		await bankRequest(context, warmUp.route, warmUp.body, { variant, itemIndex: options.itemIndex });
		token = await stored();
	}
	if (token === '') {
		throw new NodeApiError(
			context.getNode(),
			{ message: 'no access token stored' },
			{
				message: 'n8n holds no access token for this credential even after signing in',
				description: 'Save the credential again and re-run; if this persists, check that the credential is the one selected on the node.',
				itemIndex: options.itemIndex,
			},
		);
	}
	return token;
}
