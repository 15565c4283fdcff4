/**
 * One item shape whatever the credential. The dashboard's list writes `narration` where the integration list
 * and the webhook write `remarks`, and has no account_name or transaction_category: the trigger adds them
 * (remarks from narration, the category from the stream it reads, account_name from the account's balance
 * record, remembered for an hour), so `{{ $json.data.remarks }}` and `{{ $json.data.account_name }}` work with
 * either credential. `channel` exists with the API client credential only.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { asNodeError } from '../common/transport/outcome';
import type { bankRequest } from '../common/transport/request';
import type { ApiVariant } from '../common/transport/routes';
import { credentialView } from '../common/transport/session';
import type { Budget, NoRequestLeft } from './budget';
import { endsThePoll, NO_REQUEST_LEFT } from './budget';
import type { Stream } from './events';

const NAME_TTL_MS = 3_600_000;
const MAX_NAMES = 5_000;
const names = new Map<string, { name: string; atMs: number }>();

const CATEGORY: Record<Stream['name'], string> = { collections: 'collection', transfers: 'transfer' };

async function accountName(request: typeof bankRequest, context: IPollFunctions, variant: ApiVariant, account: string, budget: Budget, nowMs: number): Promise<string | undefined | NoRequestLeft> {
	const key = `${(await credentialView(context, variant)).identityKey}|${account}`;
	const known = names.get(key);
	if (known !== undefined && nowMs - known.atMs < NAME_TTL_MS) return known.name;
	const timeoutMs = budget.take();
	if (timeoutMs === NO_REQUEST_LEFT) return NO_REQUEST_LEFT;
	let balance: IDataObject | undefined;
	try {
		balance = await request<IDataObject>(context, 'getAccountBalance', { account_number: account }, { variant, attempts: 1, timeoutMs });
	} catch (error) {
		if (endsThePoll(error)) throw asNodeError(context.getNode(), error);
		context.logger.warn(`BaaS (Polling) Trigger "${context.getNode().name}" could not read the name of account ${account}: ${(error as Error).message}`);
		return undefined;
	}
	const name = typeof balance?.account_name === 'string' ? balance.account_name : undefined;
	if (name !== undefined) {
		if (names.size >= MAX_NAMES) names.delete(names.keys().next().value as string);
		names.set(key, { name, atMs: nowMs });
	}
	return name;
}

/** The record as the integration list and the webhook write it; NO_REQUEST_LEFT when that needs a request the poll may not make. */
export async function inWebhookShape(
	request: typeof bankRequest,
	context: IPollFunctions,
	variant: ApiVariant,
	stream: Stream,
	record: IDataObject,
	budget: Budget,
	nowMs: number,
): Promise<IDataObject | NoRequestLeft> {
	if (variant !== 'web' || 'remarks' in record) return record;
	const { narration, ...rest } = record;
	const account = typeof record.account_number === 'string' ? record.account_number : '';
	const name = account === '' ? undefined : await accountName(request, context, variant, account, budget, nowMs);
	if (name === NO_REQUEST_LEFT) return NO_REQUEST_LEFT;
	return {
		...rest,
		...(name !== undefined ? { account_name: name } : {}),
		transaction_category: CATEGORY[stream.name],
		remarks: narration ?? '',
	};
}
