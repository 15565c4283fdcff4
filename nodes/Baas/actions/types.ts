import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One operation: its form (UI description) and what it does for one input item. */
export interface BaasOperation {
	description: INodeProperties[];
	/** Returns the record(s) to output for item `itemIndex`; each becomes one output item paired with it. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
	/** Moves money or changes state at the bank: such operations run one item at a time by default. */
	changesState?: boolean;
}

export type ResourceOperations = Record<string, BaasOperation>;
