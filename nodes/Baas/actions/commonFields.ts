import type { INodeProperties } from 'n8n-workflow';

/**
 * Items in flight at once for reads unless the user chooses otherwise (Options → Concurrency). Measured
 * (bench/README.md, benchmark 2): at 5 the node already beats n8n's HTTP Request node sending all items at once,
 * and on a bank limiting to 50 requests/s every item still succeeds; at 20 the same bank refuses past the retries.
 */
export const DEFAULT_READ_CONCURRENCY = 5;

/** Return All / Limit, as every n8n "Get Many" operation has them. */
export const listScopeFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** How many input items are sent to the bank at once. Reads default to 5; state changes to 1. */
export function concurrencyOption(defaultValue: number): INodeProperties {
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 20 },
		default: defaultValue,
		description:
			'How many input items are sent to the bank at the same time. Output order and item pairing are kept.',
	};
}

/** The Options collection with the concurrency setting, plus any operation-specific options. */
export function optionsCollection(concurrencyDefault: number, extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrencyOption(concurrencyDefault), ...extra],
	};
}

/** The Additional Fields collection of an operation: its optional inputs, in alphabetical order by name. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options };
}

/** n8n's Simplify toggle, for operations whose records have more than 10 fields. */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};
