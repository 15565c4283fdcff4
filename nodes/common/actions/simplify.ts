import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Keeps only `keys` (in that order) of each record; amounts and all other values pass through untouched. */
export function pickFields(records: IDataObject[], keys: readonly string[]): IDataObject[] {
	return records.map((record) => Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]])));
}

/** The records as the Simplify toggle (simplifyField) of item `itemIndex` asks: only `keys` when on, else whole. */
export function simplifyAsAsked(
	context: IExecuteFunctions,
	itemIndex: number,
	records: IDataObject[],
	keys: readonly string[],
): IDataObject[] {
	return (context.getNodeParameter('simplify', itemIndex, true) as boolean) ? pickFields(records, keys) : records;
}
