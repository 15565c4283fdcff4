import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { EXPECTED_SOURCES, MATCH_KEYS, optionsOf } from '../../optionLists';
import { booleanSchema, expectedSourceSchema, filterTextSchema, matchKeySchema, toKobo, toleranceSchema, validField } from '../../validation';
import { accountLocator, readAccountNumber } from '../account/accountLocator';
import { OperationItems } from '../types';
import { collectionFilters, readCollections } from './collections';
import type { ExpectedPayment } from './matching';
import { matchKey, reconcile } from './matching';
import { rowFields, unexpectedFields, withFields } from './paymentItems';
import { readPeriod } from './period';
import { totalsFields } from './totals';
import { optionsCollection, periodFields } from './fields';

export const description: INodeProperties[] = [
	{
		displayName: 'Expected Payments From',
		name: 'expectedFrom',
		type: 'options',
		options: optionsOf(EXPECTED_SOURCES),
		default: 'items',
		description: 'Where the expected payments come from',
	},
	{
		displayName:
			'Each input item is one expected payment (a row of a Data Table, a sheet or a CSV). Every row comes out with its own columns and its outcome; then one item per payment nobody expected.',
		name: 'notice',
		type: 'notice',
		default: '',
		displayOptions: { show: { expectedFrom: ['items'] } },
	},
	{
		displayName: 'Expected Payments (JSON)',
		name: 'expectedJson',
		type: 'json',
		default: '[]',
		description:
			'An array of objects, one per expected payment, with the columns named below, e.g. [{"account_number": "0823100001", "amount": "1500.00", "customer": "Ada"}]. Every row comes out with its own columns and its outcome.',
		displayOptions: { show: { expectedFrom: ['json'] } },
	},
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		options: optionsOf(MATCH_KEYS),
		default: 'virtualAccount',
		description: 'What ties a payment to an expected row',
	},
	{
		displayName: 'Account Field',
		name: 'accountField',
		type: 'string',
		default: 'account_number',
		description: 'The column of the input items holding the virtual account each payment is expected on',
		displayOptions: { show: { matchBy: ['virtualAccount'] } },
	},
	{
		displayName: 'Reference Field',
		name: 'referenceField',
		type: 'string',
		default: 'reference',
		description: "The column of the input items holding the reference each payment is expected to carry (the bank's reference_number)",
		displayOptions: { show: { matchBy: ['reference'] } },
	},
	{
		displayName: 'Amount Field',
		name: 'amountField',
		type: 'string',
		default: 'amount',
		description: 'The column of the input items holding the expected amount in NGN (1500, 1500.50, 1,500.00; text for very large amounts)',
	},
	...periodFields,
	optionsCollection(
		[
			accountLocator({ displayName: 'Account Number', name: 'accountNumber', description: 'Only payments credited to this account' }),
			{
				displayName: 'Add Totals',
				name: 'addTotals',
				type: 'boolean',
				default: false,
				description:
					'Whether to end with one item (outcome "totals") holding the count and the expected and paid sums of each outcome as decimal strings, and the same as lines for a chat message (reconciliation_summary)',
			},
			{
				displayName: 'Include Unexpected',
				name: 'includeUnexpected',
				type: 'boolean',
				default: true,
				description: 'Whether to add one item per successful payment that no row expected (outcome "unexpected")',
			},
			{
				displayName: 'Tolerance (NGN)',
				name: 'tolerance',
				type: 'string',
				default: '0.00',
				description: 'A payment counts as the expected amount when it differs by at most this much (0.00: exact)',
			},
		],
	),
];

const NOT_MADE = 'The reconciliation was not made (nothing was read from the bank)';

/** The expected payments' rows: the input items (each paired with its item), or the array in Expected Payments (JSON). */
interface ExpectedRows {
	rows: INodeExecutionData[];
	/** "item 3" or "entry 3 of Expected Payments (JSON)": where a row is, for the messages. */
	where: (index: number) => string;
	/** The input item a row's output is paired with. */
	itemOf: (index: number) => number;
}

function expectedRows(context: IExecuteFunctions, itemIndex: number): ExpectedRows {
	const from = validField(context, itemIndex, 'Expected Payments From', expectedSourceSchema, context.getNodeParameter('expectedFrom', itemIndex, 'items'));
	if (from === 'items') return { rows: context.getInputData(), where: (index) => `item ${index + 1}`, itemOf: (index) => index };
	const refuse = (problem: string) =>
		new NodeOperationError(context.getNode(), `Expected Payments (JSON) ${problem}. ${NOT_MADE}: give an array of objects, one per expected payment, e.g. [{"account_number": "0823100001", "amount": "1500.00"}]`, { itemIndex });
	let value: unknown = context.getNodeParameter('expectedJson', itemIndex, '[]');
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch (error) {
			throw refuse(`is not valid JSON (${(error as Error).message})`);
		}
	}
	if (!Array.isArray(value)) throw refuse('is not an array');
	const bad = value.findIndex((row) => row === null || typeof row !== 'object' || Array.isArray(row));
	if (bad >= 0) throw refuse(`holds ${JSON.stringify(value[bad])?.slice(0, 40)} as entry ${bad + 1}, not an object`);
	return { rows: (value as IDataObject[]).map((json) => ({ json })), where: (index) => `entry ${index + 1} of Expected Payments (JSON)`, itemOf: () => itemIndex };
}

/** The expected payments: one per row, its key and amount read from the columns named in the form. */
function readExpected(context: IExecuteFunctions, expected: ExpectedRows, keyField: string, keyName: string, amountField: string): ExpectedPayment[] {
	return expected.rows.map((item, index) => {
		const refuse = (problem: string) =>
			new NodeOperationError(context.getNode(), `Expected payment in ${expected.where(index)}: ${problem}. ${NOT_MADE}: correct that row, or leave it out, and run again`, {
				itemIndex: expected.itemOf(index),
			});
		const key = matchKey(item.json[keyField]);
		if (key === '') throw refuse(`the column "${keyField}" (${keyName}) is empty or missing`);
		const { kobo, problem } = toKobo(item.json[amountField]);
		if (kobo === undefined) throw refuse(`the column "${amountField}" (Amount Field) ${problem}`);
		return { key, kobo };
	});
}

/**
 * The input items (expected payments) against the bank's collections of the period, read in full: one output
 * item per row, in input order and paired with it, then the unexpected payments. Runs once for all items.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationItems> {
	const matchBy = validField(this, itemIndex, 'Match By', matchKeySchema, this.getNodeParameter('matchBy', itemIndex, 'virtualAccount'));
	const byAccount = matchBy === 'virtualAccount';
	const keyName = byAccount ? 'Account Field' : 'Reference Field';
	const keyField = validField(this, itemIndex, keyName, filterTextSchema, this.getNodeParameter(byAccount ? 'accountField' : 'referenceField', itemIndex, byAccount ? 'account_number' : 'reference'));
	const amountField = validField(this, itemIndex, 'Amount Field', filterTextSchema, this.getNodeParameter('amountField', itemIndex, 'amount'));
	const period = readPeriod(this, itemIndex);
	const tolerance = validField(this, itemIndex, 'Tolerance (NGN)', toleranceSchema, this.getNodeParameter('options.tolerance', itemIndex, '0.00'));
	const includeUnexpected = validField(this, itemIndex, 'Include Unexpected', booleanSchema, this.getNodeParameter('options.includeUnexpected', itemIndex, true));
	const addTotals = validField(this, itemIndex, 'Add Totals', booleanSchema, this.getNodeParameter('options.addTotals', itemIndex, false));
	const account = readAccountNumber(this, itemIndex, 'options.accountNumber', 'Account Number', { optional: true });
	const given = expectedRows(this, itemIndex);
	const expected = readExpected(this, given, keyField, keyName, amountField);

	const reading = { itemIndex, notMade: 'The reconciliation was not made', list: 'the collections' };
	const filters = collectionFilters(period.start, period.end, account ? { account_number: account } : {});
	const collections = await readCollections(this, reading, filters, (record) => matchKey(byAccount ? record.account_number : record.reference_number));
	const { rows, unexpected } = reconcile(expected, collections, tolerance);

	const items = given.rows;
	const out: INodeExecutionData[] = rows.map((row, index) => ({
		json: withFields(items[index].json, rowFields(row, period)),
		...(items[index].binary ? { binary: items[index].binary } : {}),
		pairedItem: { item: given.itemOf(index) },
	}));
	if (includeUnexpected) {
		for (const collection of unexpected) out.push({ json: unexpectedFields(collection) as IDataObject, pairedItem: { item: 0 } });
	}
	const pairs = items.length > 0 ? [...new Set(items.map((_, index) => given.itemOf(index)))] : [itemIndex];
	if (addTotals) out.push({ json: totalsFields(rows, includeUnexpected ? unexpected : [], period), pairedItem: pairs.map((item) => ({ item })) });
	return new OperationItems(out);
}

export const wholeInput = true;
