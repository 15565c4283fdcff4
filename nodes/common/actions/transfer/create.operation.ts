import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsOf, TRANSFER_TYPES } from '../../optionLists';
import {
	accountNameSchema,
	accountNumberSchema,
	amountSchema,
	booleanSchema,
	invalidInput,
	narrationSchema,
	positiveIntegerSchema,
	transferTypeSchema,
	referenceSchema,
	validField,
} from '../../validation';
import { asNodeError } from '../../transport/outcome';
import { outcomeOf, outcomeOfRecord, withDefaultOutcome } from '../writeOutcome';
import { accountLocator, requiredAccountNumber } from '../account/accountLocator';
import { additionalFieldsCollection, writeOptions } from '../commonFields';
import type { TransferBody } from './exactlyOnce';
import { sendExactlyOnce, waitForFinalStatus } from './exactlyOnce';
import { bankCodeLocator, beneficiaryAccountNumberField, OWN_BANK_CODE, readBankCode, referenceNumberField, referenceText } from './fields';
import { checkBeneficiaryNameField, limitFields } from './safetyFields';
import { checkSpendPolicy } from './spendPolicy';
import { toolReadableRefusal } from './toolMessages';
import { forgetUnknownOutcome, rememberUnknownOutcome } from './unknownOutcomes';
import { refuseUnsafeToolCall } from './toolSafety';
import { runsAsTool } from '../toolCaller';

export const changesState = true;

export const description: INodeProperties[] = [
	{
		...referenceNumberField(
			'Your own unique reference for this payment (letters, digits, . _ : / -). Keep it the same when you retry: the bank refuses a reference it has seen, so a retried payment is never made twice. Never generate a new one per run. By default it is read from the item\'s reference_number field.',
		),
		hint: 'Keep the same reference when you retry: the bank never pays one reference twice',
	},
	{
		displayName: 'Transfer Type',
		name: 'transferType',
		type: 'options',
		required: true,
		options: optionsOf(TRANSFER_TYPES),
		default: 'intra',
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1500.00',
		description: 'Amount in NGN: positive, at most 2 decimals, such as 1500 or 1500.50',
		hint: 'Naira, exactly as given: never rounded (a value with more than 2 decimals is refused)',
	},
	accountLocator(
		{
			displayName: 'Source Account Number',
			name: 'sourceAccountNumber',
			required: true,
			description: 'Your own account the money leaves: pick it (active accounts, with their balances), or give its 10-digit number',
		},
		'searchSendingAccounts',
	),
	beneficiaryAccountNumberField('The 10-digit account number to pay'),
	{
		...bankCodeLocator('list', 'Bank of the beneficiary account (from the bank list, or its code)'),
		displayOptions: { show: { transferType: ['inter'] } },
	},
	{
		displayName: 'Narration',
		name: 'narration',
		type: 'string',
		required: true,
		default: '',
		description: 'Payment description, stored by the bank as the transfer\'s remarks (at most 255 characters)',
	},
	checkBeneficiaryNameField,
	additionalFieldsCollection([
		{
			displayName: 'Beneficiary Account Name',
			name: 'beneficiaryAccountName',
			type: 'string',
			default: '',
			description: 'Name on the beneficiary account, as returned by Transfer → Name Enquiry; with Check Beneficiary Name on, the bank must hold exactly this name or nothing is sent',
		},
	]),
	writeOptions([
		...limitFields,
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: 300,
			description:
				'With Wait for Final Status: how long to wait at most. A transfer still pending then is returned with status pending.',
		},
		{
			displayName: 'Wait for Final Status',
			name: 'waitForFinalStatus',
			type: 'boolean',
			default: false,
			description:
				'Whether to wait until an inter-bank transfer is successful or failed, asking the bank at growing intervals (5 s, 15 s, 60 s…), before passing the item on',
		},
	]),
];

function readTransfer(context: IExecuteFunctions, itemIndex: number): TransferBody {
	const param = (name: string) => context.getNodeParameter(name, itemIndex);
	const transferType = validField(context, itemIndex, 'Transfer Type', transferTypeSchema, param('transferType'));
	const body: TransferBody = {
		reference_number: validField(context, itemIndex, 'Reference Number', referenceSchema, referenceText(param('referenceNumber'))),
		transfer_type: transferType,
		amount: validField(context, itemIndex, 'Amount', amountSchema, param('amount')),
		source_account_number: requiredAccountNumber(context, itemIndex, 'sourceAccountNumber', 'Source Account Number'),
		beneficiary_account_number: validField(context, itemIndex, 'Beneficiary Account Number', accountNumberSchema, param('beneficiaryAccountNumber')),
		bank_code: transferType === 'inter' ? readBankCode(context, itemIndex) : OWN_BANK_CODE,
		narration: validField(context, itemIndex, 'Narration', narrationSchema, param('narration')),
	};
	if (transferType === 'inter' && body.bank_code === OWN_BANK_CODE) {
		throw invalidInput(context, itemIndex, 'Bank Code', `is this bank's own code; use Transfer Type "Intra-Bank"`, body.bank_code);
	}
	if (body.beneficiary_account_number === body.source_account_number) {
		throw invalidInput(context, itemIndex, 'Beneficiary Account Number', 'must differ from Source Account Number', body.beneficiary_account_number);
	}
	const name = context.getNodeParameter('additionalFields.beneficiaryAccountName', itemIndex, '') as string;
	if (name) body.beneficiary_account_name = validField(context, itemIndex, 'Beneficiary Account Name', accountNameSchema, name);
	return body;
}

/** Sends money exactly once per reference, within the node's spend policy; optionally waits for the final status. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	let body: TransferBody | undefined;
	try {
		refuseUnsafeToolCall(this);
		body = readTransfer(this, itemIndex);
		const transfer = body;
		// Checked before sending: a bad option must not surface only after the money moved.
		const wait = validField(this, itemIndex, 'Wait for Final Status', booleanSchema, this.getNodeParameter('options.waitForFinalStatus', itemIndex, false));
		const maxWaitSeconds = validField(this, itemIndex, 'Max Wait (Seconds)', positiveIntegerSchema, this.getNodeParameter('options.maxWaitSeconds', itemIndex, 300));
		const checkName = validField(this, itemIndex, 'Check Beneficiary Name', booleanSchema, this.getNodeParameter('checkBeneficiaryName', itemIndex, false));
		const reservation = await checkSpendPolicy(this, itemIndex, transfer, checkName);
		const sent = await sendExactlyOnce(this, transfer, itemIndex).catch((error: unknown) => {
			// Refused by the bank: nothing moved, so nothing counts against the day. Unknown: it stays counted.
			if (outcomeOf(asNodeError(this.getNode(), error, itemIndex)) === 'refused') reservation?.release();
			throw error;
		});
		forgetUnknownOutcome(transfer);
		let record = sent.record;
		if (wait) record = await waitForFinalStatus(this, record, maxWaitSeconds * 1000, itemIndex);
		const result: IDataObject = { ...record, outcome: outcomeOfRecord(record) };
		// An agent that calls again with the same reference hears that it was paid once, earlier.
		if (runsAsTool(this)) result.already_sent = sent.sentBefore;
		return result;
	} catch (error) {
		// Every item, success or error, says what happened to the money in one word (see ../writeOutcome.ts).
		const failure = withDefaultOutcome(asNodeError(this.getNode(), error, itemIndex));
		if (body && outcomeOf(failure) === 'unknown') rememberUnknownOutcome(body);
		throw runsAsTool(this) && body ? toolReadableRefusal(failure, body) : failure;
	}
}
