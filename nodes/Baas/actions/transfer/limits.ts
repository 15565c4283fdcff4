import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { accountNumberSchema, amountSchema, compareAmounts, invalidInput, validField } from '../../validation';
import { refusedError } from '../writeOutcome';
import type { TransferBody } from './exactlyOnce';

function allowedAccounts(context: IExecuteFunctions, itemIndex: number, raw: unknown): string[] | undefined {
	if (raw === undefined || raw === null || String(raw).trim() === '') return undefined;
	const entries = String(raw).split(/[\s,;]+/).filter((entry) => entry !== '');
	for (const entry of entries) {
		if (!accountNumberSchema.safeParse(entry).success) {
			throw invalidInput(context, itemIndex, 'Allowed Beneficiary Accounts', 'must list 10-digit account numbers separated by commas, spaces or new lines', entry);
		}
	}
	return entries;
}

/**
 * Refuses, before any request, a transfer above Maximum Amount or to an account outside Allowed Beneficiary
 * Accounts. The message says all of it, since an AI agent reads the message only. Amounts are compared as
 * decimals in kobo, never as floats.
 */
export function refuseOutsideLimits(context: IExecuteFunctions, itemIndex: number, body: TransferBody): void {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const maximum = options.maximumAmount ? validField(context, itemIndex, 'Maximum Amount', amountSchema, options.maximumAmount) : undefined;
	const allowed = allowedAccounts(context, itemIndex, options.allowedBeneficiaryAccounts);
	const notSent = `Transfer ${body.reference_number} was not sent`;
	if (maximum !== undefined && compareAmounts(body.amount, maximum) > 0) {
		throw refusedError(
			context.getNode(),
			itemIndex,
			`${notSent}: its amount, NGN ${body.amount}, is above this node's Maximum Amount of NGN ${maximum}. Nothing was sent to the bank.`,
			'A larger payment needs another way: ask the person who set the limit on this node.',
		);
	}
	if (allowed !== undefined && !allowed.includes(body.beneficiary_account_number)) {
		throw refusedError(
			context.getNode(),
			itemIndex,
			`${notSent}: account ${body.beneficiary_account_number} is not among this node's Allowed Beneficiary Accounts. Nothing was sent to the bank.`,
			'Only the accounts listed in the node\'s Allowed Beneficiary Accounts can be paid: ask the person who set the list to add it.',
		);
	}
}
