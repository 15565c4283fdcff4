import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { amountSchema, compareAmounts, validField } from '../../validation';
import { refusedError } from '../writeOutcome';
import type { AllowedBeneficiary } from './allowedBeneficiaries';
import { allowedBeneficiariesOf, isAllowed, spell } from './allowedBeneficiaries';
import type { TransferBody } from './exactlyOnce';

/** Send money's limits as set on the node for one item; undefined: no limit of that kind. */
export interface Limits {
	maximumAmount?: string;
	allowed?: AllowedBeneficiary[];
	dailyLimit?: string;
}

type LimitName = keyof typeof LIMIT_LABELS;

export const LIMIT_LABELS = {
	maximumAmount: 'Maximum Amount',
	allowedBeneficiaryAccounts: 'Allowed Beneficiaries',
	dailyLimit: 'Daily Limit per Source Account',
} as const;

const isNothing = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/**
 * A limit's value for this item. An empty field is "no limit"; a field set by an expression that yields nothing
 * (an empty list, a missing column) refuses the item: it cannot be told from a limit that failed to load, and a
 * limit must fail closed.
 */
function limitValue(context: IExecuteFunctions, itemIndex: number, name: LimitName, notSent: string): unknown {
	const raw = (context.getNode().parameters.options as IDataObject | undefined)?.[name];
	const value = context.getNodeParameter(`options.${name}`, itemIndex, '') as unknown;
	if (!isNothing(value)) return value;
	if (typeof raw === 'string' && raw.startsWith('=') && raw.trim() !== '=') {
		throw refusedError(
			context.getNode(),
			itemIndex,
			`${notSent}: this node's ${LIMIT_LABELS[name]} is set by an expression (${raw.slice(1).trim()}) that gave no value for item ${itemIndex + 1}, so the limit could not be applied. Nothing was sent to the bank.`,
			`Give the expression a value for every item, or empty the field for no limit; keep the same reference when you run it again.`,
		);
	}
	return undefined;
}

/** Reads the limits of one item (before any request): a malformed value refuses the item, naming the field. */
export function limitsOf(context: IExecuteFunctions, itemIndex: number, body: TransferBody): Limits {
	const notSent = `Transfer ${body.reference_number} was not sent`;
	const maximum = limitValue(context, itemIndex, 'maximumAmount', notSent);
	const allowed = limitValue(context, itemIndex, 'allowedBeneficiaryAccounts', notSent);
	const daily = limitValue(context, itemIndex, 'dailyLimit', notSent);
	return {
		maximumAmount: maximum === undefined ? undefined : validField(context, itemIndex, LIMIT_LABELS.maximumAmount, amountSchema, maximum),
		allowed: allowed === undefined ? undefined : allowedBeneficiariesOf(context, itemIndex, allowed),
		dailyLimit: daily === undefined ? undefined : validField(context, itemIndex, LIMIT_LABELS.dailyLimit, amountSchema, daily),
	};
}

/**
 * Refuses, before any request, a transfer above Maximum Amount. The message says all of it, since an AI agent reads
 * the message only. Amounts are compared as decimals in kobo, never as floats.
 */
export function refuseAboveMaximum(context: IExecuteFunctions, itemIndex: number, body: TransferBody, limits: Limits): void {
	const maximum = limits.maximumAmount;
	if (maximum === undefined || compareAmounts(body.amount, maximum) <= 0) return;
	throw refusedError(
		context.getNode(),
		itemIndex,
		`Transfer ${body.reference_number} was not sent: its amount, NGN ${body.amount}, is above this node's Maximum Amount of NGN ${maximum}. Nothing was sent to the bank.`,
		'Do not split the payment to pass the limit: a larger payment needs another way, ask the person who set the limit on this node.',
	);
}

/**
 * Refuses a beneficiary outside Allowed Beneficiaries: an account is allowed at its bank only (account numbers are
 * unique per bank). `nameAtBank`, when given, is the name the bank holds on the refused account, shown so that a
 * person sees whose account it is.
 */
export function refuseOtherAccount(context: IExecuteFunctions, itemIndex: number, body: TransferBody, limits: Limits, nameAtBank?: string): void {
	if (limits.allowed === undefined || isAllowed(limits.allowed, body)) return;
	const asked = spell(body.beneficiary_account_number, body.bank_code);
	const sameNumber = limits.allowed.filter((entry) => entry.account === body.beneficiary_account_number);
	const elsewhere = sameNumber.length > 0 ? ` Only ${sameNumber.map((e) => spell(e.account, e.bankCode)).join(', ')} is allowed: the same number at another bank is another account.` : '';
	const named = nameAtBank ? ` The bank names account ${asked} "${nameAtBank}".` : '';
	throw refusedError(
		context.getNode(),
		itemIndex,
		`Transfer ${body.reference_number} was not sent: account ${asked} is not among this node's Allowed Beneficiaries.${elsewhere}${named} Nothing was sent to the bank.`,
		'Only the accounts listed in Allowed Beneficiaries (account:bank code) can be paid: ask the person who set the list to add it.',
	);
}

/** Whether the refusal of refuseOtherAccount would show a name worth asking the bank for. */
export const refusesAccountNumberAllowedElsewhere = (limits: Limits, body: TransferBody) =>
	limits.allowed !== undefined && !isAllowed(limits.allowed, body) && limits.allowed.some((entry) => entry.account === body.beneficiary_account_number);
