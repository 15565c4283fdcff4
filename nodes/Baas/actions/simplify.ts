import type { IDataObject } from 'n8n-workflow';

/** Keeps only `keys` (in that order) of each record; amounts and all other values pass through untouched. */
export function pickFields(records: IDataObject[], keys: readonly string[]): IDataObject[] {
	return records.map((record) => Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]])));
}
