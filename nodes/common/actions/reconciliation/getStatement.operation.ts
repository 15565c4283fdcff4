import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsOf, STATEMENT_OUTPUTS } from '../../optionLists';
import { filterTextSchema, statementOutputSchema, validField } from '../../validation';
import { accountLocator, readAccountNumber } from '../account/accountLocator';
import { OperationItems } from '../types';
import { bankKobo } from './collections';
import { csvLine } from './csv';
import { koboToAmount } from '../../amounts';
import { eachPage } from './pages';
import { readPeriod } from './period';
import { optionsCollection, periodFields } from './fields';

export const description: INodeProperties[] = [
	accountLocator({ displayName: 'Account Number', name: 'accountNumber', description: 'The account of the statement; leave empty for every account of the business' }),
	...periodFields,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: optionsOf(STATEMENT_OUTPUTS),
		default: 'csv',
		description: 'A CSV file (one item, the totals in its JSON) or one item per transaction',
	},
	optionsCollection(
		[
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. statement-0823000001-2026-01-01-2026-01-31.csv',
				description: 'The name of the CSV file; empty: statement-ACCOUNT-START-END.csv (ACCOUNT is all for every account)',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				hint: 'The name of the output binary field to put the file in',
			},
		],
		{ displayOptions: { show: { output: ['csv'] } } },
	),
];

/**
 * Every transaction of the period (one account or all), every page, in the bank's order (newest first): as
 * items, or as one CSV file written page by page (the records are not kept) with the period's totals. Totals
 * count successful transactions: total_in the credits, total_out the debits; count is every line.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[] | OperationItems> {
	const account = readAccountNumber(this, itemIndex, 'accountNumber', 'Account Number', { optional: true });
	const period = readPeriod(this, itemIndex);
	const output = validField(this, itemIndex, 'Output', statementOutputSchema, this.getNodeParameter('output', itemIndex, 'csv'));
	const filters: IDataObject = { start_date: period.start, end_date: period.end, ...(account ? { account_number: account } : {}) };
	const reading = { itemIndex, notMade: 'The statement is incomplete and was not produced', list: 'the transactions' };

	if (output === 'items') {
		const records: IDataObject[] = [];
		await eachPage(this, 'fetchTransactions', { filters }, reading, (page) => {
			for (const record of page) records.push(record);
		});
		return records;
	}

	const property = validField(this, itemIndex, 'Put Output File in Field', filterTextSchema, this.getNodeParameter('options.binaryPropertyName', itemIndex, 'data'));
	const named = this.getNodeParameter('options.fileName', itemIndex, '') as unknown;
	const fileName = named ? validField(this, itemIndex, 'File Name', filterTextSchema, named) : `statement-${account ?? 'all'}-${period.start}-${period.end}.csv`;
	let columns: string[] | undefined;
	// The file is kept as one buffer per page, never as the records or one long string: memory stays near the file's size.
	const pages: Buffer[] = [];
	let count = 0;
	let totalIn = 0n;
	let totalOut = 0n;
	await eachPage(this, 'fetchTransactions', { filters }, reading, (page) => {
		const keys = (columns ??= Object.keys(page[0]));
		let text = '';
		for (const record of page) {
			const kobo = bankKobo(this, reading, record);
			if (record.status === 'success') {
				if (record.transaction_type === 'credit') totalIn += kobo;
				else if (record.transaction_type === 'debit') totalOut += kobo;
			}
			text += `${csvLine(keys.map((column) => record[column]))}\r\n`;
		}
		count += page.length;
		pages.push(Buffer.from(text, 'utf8'));
	});
	// A statement with no transaction still has its header: the file says "nothing happened", not "nothing read".
	const header = Buffer.from(`${csvLine(columns ?? ['reference_number', 'account_number', 'amount', 'transaction_type', 'status', 'created_at'])}\r\n`, 'utf8');
	const file = Buffer.concat([header, ...pages.splice(0)]);
	const binary = await this.helpers.prepareBinaryData(file, fileName, 'text/csv');
	const json = {
		account_number: account ?? 'all',
		start_date: period.start,
		end_date: period.end,
		count,
		total_in: koboToAmount(totalIn),
		total_out: koboToAmount(totalOut),
		file_name: fileName,
	};
	return new OperationItems([{ json, binary: { [property]: binary } }]);
}
