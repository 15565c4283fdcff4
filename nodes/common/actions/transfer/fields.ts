import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bankCodeSchema, validField } from '../../validation';

/** The code of the service's own bank: what an intra-bank transfer sends as bank_code. */
export const OWN_BANK_CODE = '090823';

/** Your own reference of a transfer, read from the item's reference_number field unless set otherwise. */
export function referenceNumberField(description: string): INodeProperties {
	return {
		displayName: 'Reference Number',
		name: 'referenceNumber',
		type: 'string',
		required: true,
		default: '={{ $json.reference_number }}',
		placeholder: 'e.g. PAYOUT-2026-0001',
		description,
	};
}

/** The account to pay (or to look up before paying), typed as its 10-digit number. */
export function beneficiaryAccountNumberField(description: string): INodeProperties {
	return {
		displayName: 'Beneficiary Account Number',
		name: 'beneficiaryAccountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0823100002',
		description,
	};
}

/**
 * Bank picker: the bank list (fetch_banks, cached 24 h) with search, or a code typed by hand. The list needs the
 * API Client authentication; on the dashboard node it says so, and "By Code" is the way.
 */
export function bankCodeLocator(defaultMode: 'list' | 'id', description: string): INodeProperties {
	return {
		displayName: 'Bank Code',
		name: 'bankCode',
		type: 'resourceLocator',
		default: { mode: defaultMode, value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a bank...',
				typeOptions: { searchListMethod: 'searchBanks', searchable: true },
			},
			{
				displayName: 'By Code',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 000014',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*\\d{3,6}\\s*$', errorMessage: 'A bank code is 3 to 6 digits (see Bank → Get Many)' },
					},
				],
			},
		],
	};
}

/** The bank code of item `itemIndex`, whichever mode was used, validated. */
export function readBankCode(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('bankCode', itemIndex, '', { extractValue: true });
	return validField(context, itemIndex, 'Bank Code', bankCodeSchema, value);
}

/** Names compared as people read them: case and spacing do not matter. */
export function sameName(a: string, b: string): boolean {
	const normal = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
	return normal(a) === normal(b);
}

/** A reference from a sheet may arrive as a number; a missing one (no reference_number field) as nothing. */
export function referenceText(value: unknown): unknown {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	return value ?? '';
}
