import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dateSchema, settlementDaysSchema, validField } from '../../validation';
import { accountLocator, readAccountNumber } from '../account/accountLocator';
import { bankKobo, collectionFilters, readCollections } from './collections';
import { matchKey } from './matching';
import { eachPage } from './pages';
import { shiftDay } from './period';
import type { SettlementEntry } from './settlements';
import { checkSettlements } from './settlements';
import { optionsCollection } from './fields';

export const description: INodeProperties[] = [
	{
		displayName: 'Date',
		name: 'date',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-01-31',
		description: 'The day of the collections to check, written YYYY-MM-DD (UTC)',
	},
	optionsCollection(
		[
			accountLocator({ displayName: 'Account Number', name: 'accountNumber', description: 'Only collections and settlements of this account' }),
			{
				displayName: 'Settlement Days',
				name: 'settlementDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 31 },
				default: 2,
				description: 'How many days after the collections\' day their settlements are looked for (the day itself is always read)',
			},
		],
	),
];

/**
 * The successful collections of a day against the settlements of that day and the next Settlement Days: one
 * item per collection and per settlement without a collection, each with its settlement_outcome, then totals
 * per account and for the day. Every page of both lists is read, or the check fails: no partial check.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const day = validField(this, itemIndex, 'Date', dateSchema, this.getNodeParameter('date', itemIndex, ''));
	const days = validField(this, itemIndex, 'Settlement Days', settlementDaysSchema, this.getNodeParameter('options.settlementDays', itemIndex, 2));
	const account = readAccountNumber(this, itemIndex, 'options.accountNumber', 'Account Number', { optional: true });
	const accountFilter: IDataObject = account ? { account_number: account } : {};
	const notMade = 'The settlement check was not made';

	// Collections of the days around it too: a settlement of a late or early collection is not an orphan.
	const collections = await readCollections(
		this,
		{ itemIndex, notMade, list: 'the collections' },
		collectionFilters(shiftDay(day, -days), shiftDay(day, days), { status: 'success', ...accountFilter }),
		(record) => matchKey(record.reference_number),
	);
	const ofDay = collections.filter((collection) => collection.createdAt.startsWith(day));
	const otherReferences = new Set(collections.filter((collection) => !collection.createdAt.startsWith(day)).map((collection) => collection.key));

	const settlements: SettlementEntry[] = [];
	const reading = { itemIndex, notMade, list: 'the settlements' };
	await eachPage(this, 'fetchSettlementTransactions', { filters: { start_date: day, end_date: shiftDay(day, days), ...accountFilter } }, reading, (records) => {
		for (const record of records) {
			settlements.push({
				reference: String(record.reference),
				account: String(record.account_number ?? ''),
				kobo: bankKobo(this, reading, record),
				status: String(record.status ?? '').toLowerCase(),
				settledAt: String(record.settlement_date ?? ''),
			});
		}
	});

	return checkSettlements({
		day,
		collections: ofDay.map((c) => ({ reference: c.reference, account: String(c.record.account_number ?? ''), kobo: c.kobo, createdAt: c.createdAt })),
		otherReferences,
		settlements,
		nowMs: Date.now(),
	});
}
