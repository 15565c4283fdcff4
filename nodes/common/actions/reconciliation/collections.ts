import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toKobo } from '../../validation';
import type { Collection } from './matching';
import type { Reading } from './pages';
import { eachPage, readingFailed } from './pages';

/** The filters of a period's collections: inbound payments (credits of category collection), both days inclusive. */
export function collectionFilters(start: string, end: string, more: IDataObject = {}): IDataObject {
	return { start_date: start, end_date: end, transaction_type: 'credit', transaction_category: 'collection', ...more };
}

/** A bank amount in kobo; an amount the node cannot read stops the reading (a guess would be a wrong total). */
export function bankKobo(context: IExecuteFunctions, reading: Reading, record: IDataObject): bigint {
	const { kobo, problem } = toKobo(record.amount);
	if (kobo === undefined) {
		const reference = String(record.reference_number ?? record.reference);
		throw readingFailed(context, reading, `the amount of ${reference} (${JSON.stringify(record.amount)}) cannot be read: it ${problem}`);
	}
	return kobo;
}

/**
 * Every collection the filters select, every page, oldest first (the bank lists newest first), each with its
 * key for the matching and the bank's record untouched.
 */
export async function readCollections(
	context: IExecuteFunctions,
	reading: Reading,
	filters: IDataObject,
	keyOf: (record: IDataObject) => string,
): Promise<Array<Collection<IDataObject>>> {
	const collections: Array<Collection<IDataObject>> = [];
	await eachPage(context, 'fetchTransactions', { filters }, reading, (records) => {
		for (const record of records) {
			collections.push({
				key: keyOf(record),
				reference: String(record.reference_number),
				kobo: bankKobo(context, reading, record),
				status: String(record.status ?? '').toLowerCase(),
				createdAt: String(record.created_at ?? ''),
				record,
			});
		}
	});
	return collections.reverse();
}
