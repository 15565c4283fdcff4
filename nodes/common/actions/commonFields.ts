import type { INodeProperties } from 'n8n-workflow';

/**
 * Reads in flight at the start of a run, and the most a run reaches unless the user sets Concurrency. Measured
 * (bench/README.md, benchmark 2): a fixed 5 lost to n8n's HTTP Request node (all items at once) on a bank
 * without a limit; a fixed 20 had items refused past their retries on a bank allowing 50 requests/s. Starting
 * at 5 and following the bank's answers (transport/pace.ts) does well on both.
 */
export const FIRST_READS_IN_FLIGHT = 5;
export const MOST_READS_IN_FLIGHT = 50;

/**
 * The most a Concurrency can be, as the forms say (maxValue): a value from an expression, or one n8n kept from
 * another operation's Options when the operation was switched, is held to these in the router.
 */
export const CONCURRENCY_MAXIMUM = { read: 100, stateChange: 20 } as const;

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

/** The Options collection of an operation, with its Concurrency setting and any operation-specific options. */
function optionsCollection(concurrency: INodeProperties, extra: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrency, ...extra],
	};
}

// The two Concurrency settings below are written out whole: n8n's lint rules check a parameter's default and
// description only where they are literal.

/** Options of a read: Concurrency is the most items in flight; the node finds the bank's pace below it. */
export function readOptions(extra: INodeProperties[] = []): INodeProperties {
	return optionsCollection(
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: CONCURRENCY_MAXIMUM.read },
			default: MOST_READS_IN_FLIGHT,
			description: `The most input items sent to the bank at the same time. A run starts with ${FIRST_READS_IN_FLIGHT} and adds more while the bank keeps answering; when the bank says it is busy (too many requests) the number is cut back. Output order and item pairing are kept.`,
		},
		extra,
	);
}

/** Options of a state change: Concurrency is exactly the number of items sent at once, 1 unless the user raises it. */
export function writeOptions(extra: INodeProperties[] = []): INodeProperties {
	return optionsCollection(
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: CONCURRENCY_MAXIMUM.stateChange },
			default: 1,
			description: 'How many input items are sent to the bank at the same time. Output order and item pairing are kept.',
		},
		extra,
	);
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
