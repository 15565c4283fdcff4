import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { responseCodeOf } from '../../transport/outcome';
import { MAX_PAGE_SIZE, nextPageSize } from '../../transport/paging';
import { bankRequest } from '../../transport/request';

/** What a reading is for, so that a failure says what was not made: "the reconciliation", "the statement". */
export interface Reading {
	itemIndex: number;
	/** e.g. "The reconciliation was not made" */
	notMade: string;
	/** e.g. "the collections" */
	list: string;
}

/** A reconciliation reads every record of a period: the largest pages make the fewest requests (a statement of 100,000 transactions in 100). */
export const READING_PAGE_SIZE = 1000;

const sameRecord = (a: IDataObject, b: IDataObject) => (a.id !== undefined || b.id !== undefined ? a.id === b.id : JSON.stringify(a) === JSON.stringify(b));
const referenceOf = (record: IDataObject) => String(record.reference_number ?? record.reference ?? '');

/** The error of a reading that cannot go on: it names what was not made, and what to do, in its message (a model reads only that). */
export function readingFailed(context: IExecuteFunctions, reading: Reading, why: string, error?: unknown): Error {
	const message = `${reading.notMade}: ${why}. Nothing partial was returned; run it again (the bank's list is only read).`;
	if (error instanceof NodeApiError) {
		error.message = `${message} The bank said: ${error.message}`;
		return error;
	}
	return new NodeOperationError(context.getNode(), message, { itemIndex: reading.itemIndex });
}

/**
 * Reads every page of a newest-first list, handing each page's records to `onPage` and keeping none itself
 * (a statement of 100,000 transactions is written as it is read). A page shorter than asked ends the list only
 * when it is also shorter than an earlier page: a bank may cap its pages below what was asked (the contract names
 * no cap), and a short page is then not the end; the next pages are asked at the size served (nextPageSize), so
 * a bank numbering its pages by the size asked skips nothing either; a bank that refuses pages of READING_PAGE_SIZE
 * as invalid input (99) is read in pages of MAX_PAGE_SIZE. A record that arrives at the head
 * while the pages are read shifts them by one: the repeats it causes at the start of a page are dropped.
 * A page that cannot be read (after the transport's retries) or a list that does not advance throws
 * readingFailed: there is no partial result.
 */
export async function eachPage(
	context: IExecuteFunctions,
	routeName: Parameters<typeof bankRequest>[1],
	body: IDataObject,
	reading: Reading,
	onPage: (records: IDataObject[]) => void,
): Promise<void> {
	let previous = new Map<string, IDataObject>();
	let longest = 0;
	let asked = READING_PAGE_SIZE;
	for (let page = 1; ; page++) {
		let data: unknown;
		try {
			data = await bankRequest(context, routeName, { ...body, page, page_size: asked }, { itemIndex: reading.itemIndex });
		} catch (error) {
			// A bank that refuses so large a page as invalid input (99) is read in the pages the node's lists ask.
			if (page === 1 && asked > MAX_PAGE_SIZE && responseCodeOf(error) === '99') {
				asked = MAX_PAGE_SIZE;
				page--;
				continue;
			}
			throw readingFailed(context, reading, `page ${page} of ${reading.list} could not be read`, error);
		}
		if (!Array.isArray(data)) throw readingFailed(context, reading, `page ${page} of ${reading.list} came back without a list`);
		const batch = data as unknown[];
		if (batch.length === 0) return;
		batch.forEach((record, index) => {
			if (record === null || typeof record !== 'object' || Array.isArray(record) || referenceOf(record as IDataObject) === '') {
				throw readingFailed(context, reading, `entry ${index + 1} of page ${page} of ${reading.list} is not a record with a reference (${JSON.stringify(record)?.slice(0, 80)})`);
			}
		});
		const records = batch as IDataObject[];
		let repeats = 0;
		while (repeats < records.length && previous.has(referenceOf(records[repeats])) && sameRecord(previous.get(referenceOf(records[repeats]))!, records[repeats])) repeats++;
		if (repeats === records.length) throw readingFailed(context, reading, `page ${page} of ${reading.list} repeats page ${page - 1}`);
		onPage(repeats > 0 ? records.slice(repeats) : records);
		previous = new Map(records.map((record) => [referenceOf(record), record]));
		if (records.length < asked && records.length < longest) return;
		longest = Math.max(longest, records.length);
		asked = nextPageSize(asked, records.length);
	}
}
