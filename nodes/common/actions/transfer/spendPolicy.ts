import type { IExecuteFunctions } from 'n8n-workflow';

import { credentialView } from '../../transport/session';
import { runsAsTool } from '../toolCaller';
import type { SpendReservation } from './dailyLimit';
import { reserveWithinDailyLimit } from './dailyLimit';
import type { TransferBody } from './exactlyOnce';
import { limitsOf, refuseAboveMaximum, refuseOtherAccount, refusesAccountNumberAllowedElsewhere } from './limits';
import { nameEnquiryFor, refuseOtherBeneficiary } from './nameCheck';
import { refuseRepeatOfUnknown } from './unknownOutcomes';

/**
 * Send money's spend policy, the node's own whatever the workflow around it (docs/safety.md, "Spend policy"): every
 * rule is checked before anything that moves money, cheapest first, and each refusal's message says why and what
 * to do. Returns the Daily Limit's reservation (to release when the bank refuses the send), if a daily limit is set.
 */
export async function checkSpendPolicy(
	context: IExecuteFunctions,
	itemIndex: number,
	body: TransferBody,
	checkName: boolean,
): Promise<SpendReservation | undefined> {
	const limits = limitsOf(context, itemIndex, body);
	refuseAboveMaximum(context, itemIndex, body, limits);
	if (runsAsTool(context)) refuseRepeatOfUnknown(context, itemIndex, body);
	if (refusesAccountNumberAllowedElsewhere(limits, body)) {
		// Show whose account the refused one is, when the node can ask (its name check's dashboard credential).
		refuseOtherAccount(context, itemIndex, body, limits, checkName ? await nameAtBank(context, itemIndex, body) : undefined);
	}
	refuseOtherAccount(context, itemIndex, body, limits);
	if (checkName) await refuseOtherBeneficiary(context, itemIndex, body);
	if (limits.dailyLimit === undefined) return undefined;
	const { baseUrl } = await credentialView(context, 'api', itemIndex);
	return await reserveWithinDailyLimit(context, itemIndex, body, limits.dailyLimit, baseUrl);
}

/** The name the bank holds on the beneficiary account, or undefined when it cannot be read (the refusal stands). */
async function nameAtBank(context: IExecuteFunctions, itemIndex: number, body: TransferBody): Promise<string | undefined> {
	try {
		const found = await nameEnquiryFor(context, itemIndex, body);
		return typeof found?.account_name === 'string' ? found.account_name : undefined;
	} catch {
		return undefined;
	}
}
