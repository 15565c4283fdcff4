import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** Items an operation makes itself: with binary data, or paired with other input items than the one it ran for. */
export class OperationItems {
	constructor(readonly items: INodeExecutionData[]) {}
}

/** One operation: its form (UI description) and what it does for one input item. */
export interface BaasOperation {
	description: INodeProperties[];
	/** Returns the record(s) to output for item `itemIndex`; each becomes one output item paired with it. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[] | OperationItems>;
	/** Moves money or changes state at the bank: such operations run one item at a time by default. */
	changesState?: boolean;
	/**
	 * Reads all input items as one set (e.g. the expected payments of a reconciliation): execute runs once, for
	 * item 0, and the pairing of the items it returns is kept.
	 */
	wholeInput?: boolean;
}

export type ResourceOperations = Record<string, BaasOperation>;
