import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { bankAddressOf } from '../../transport/bankAddress';
import { credentialView } from '../../transport/session';
import { bankRequest } from '../../transport/request';
import { asNodeError } from '../../transport/outcome';
import { invalidInput } from '../../validation';
import { refusedError, whyNoAnswer } from '../writeOutcome';
import type { TransferBody } from './exactlyOnce';
import { sameName } from './fields';

/** The bank's Name Enquiry for a transfer's beneficiary (a dashboard route: the node's BaaS Dashboard credential). */
export async function nameEnquiryFor(context: IExecuteFunctions, itemIndex: number, body: TransferBody): Promise<IDataObject> {
	return await bankRequest<IDataObject>(
		context,
		'nameEnquiry',
		{ beneficiary_account_number: body.beneficiary_account_number, bank_code: body.bank_code, source_account_number: body.source_account_number },
		{ itemIndex, variant: 'web' },
	);
}

/**
 * Check Beneficiary Name: just before sending, asks the bank for the name on the beneficiary account (Name
 * Enquiry, a dashboard route: the node's BaaS Dashboard credential) and refuses the transfer unless it is the
 * Beneficiary Account Name given (case and spacing aside). So what a person approved ("pay Babatunde Adeyemi")
 * is what the bank holds, or nothing is sent. Every failure here leaves the transfer not sent.
 */
export async function refuseOtherBeneficiary(context: IExecuteFunctions, itemIndex: number, body: TransferBody): Promise<void> {
	const expected = typeof body.beneficiary_account_name === 'string' ? body.beneficiary_account_name : '';
	if (!expected) {
		throw invalidInput(context, itemIndex, 'Beneficiary Account Name', 'must be set (under Additional Fields) when Check Beneficiary Name is on');
	}
	const notSent = `Transfer ${body.reference_number} was not sent`;
	// Both credentials must name the same bank, or the check would ask another bank than the one paying. The
	// addresses are shown without user-info: a gateway's password must not reach a model or n8n's log.
	const [api, dashboard] = await Promise.all([credentialView(context, 'api', itemIndex), credentialView(context, 'web', itemIndex)]);
	if (bankAddressOf(api.baseUrl) !== bankAddressOf(dashboard.baseUrl)) {
		throw refusedError(
			context.getNode(),
			itemIndex,
			`${notSent}: the BaaS API credential (${api.scrub(api.baseUrl)}) and the BaaS Dashboard credential (${dashboard.scrub(dashboard.baseUrl)}) point at different banks, so the name could not be checked at the paying bank.`,
			'Pick a BaaS Dashboard credential of the same bank as the BaaS API credential.',
		);
	}
	let found: IDataObject;
	try {
		found = await nameEnquiryFor(context, itemIndex, body);
	} catch (error) {
		const cause = asNodeError(context.getNode(), error, itemIndex);
		throw refusedError(
			context.getNode(),
			itemIndex,
			`${notSent}: the bank's Name Enquiry for account ${body.beneficiary_account_number} (bank ${body.bank_code}) failed (${whyNoAnswer(cause)}), so the name could not be checked.`,
			cause.description ?? 'Check the account number and bank code; run it again once the bank answers.',
		);
	}
	const held = String(found.account_name ?? '');
	if (!sameName(held, expected)) {
		throw refusedError(
			context.getNode(),
			itemIndex,
			`${notSent}: the bank has "${held}" on account ${body.beneficiary_account_number} (bank ${body.bank_code}), not "${expected}". Nothing was sent to the bank.`,
			'Check whom this payment is for: the account number, the bank or the expected name is wrong.',
		);
	}
}
