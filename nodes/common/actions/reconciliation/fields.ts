import type { INodeProperties } from 'n8n-workflow';

/** The period fields of Match Expected Payments and Get Statement: both days required and inclusive. */
export const periodFields: INodeProperties[] = [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-01-31',
		description: 'First day of the period, written YYYY-MM-DD (inclusive, UTC)',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-01-31',
		description: 'Last day of the period, written YYYY-MM-DD (inclusive, UTC); the same as Start Date for one day',
	},
];

/** The Options collection of a reconciliation operation (no Concurrency: each runs as one reading of the bank's lists). */
export function optionsCollection(options: INodeProperties[], extra: Partial<INodeProperties> = {}): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options, ...extra };
}
