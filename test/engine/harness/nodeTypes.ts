import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	IDataObject,
} from 'n8n-workflow';

import { Baas } from '../../../nodes/Baas/Baas.node';
import { BaasDashboard } from '../../../nodes/BaasDashboard/BaasDashboard.node';

/** Test-only source node: outputs the items given in its `items` parameter (stands in for a sheet's rows). */
class TestItems implements INodeType {
	description = {
		displayName: 'Test Items',
		name: 'testItems',
		group: ['input'],
		version: 1,
		description: 'Emits the items of its parameter',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

/** Stand-in for n8n's NoOp node: n8n's credential tester runs the test request as such a node. */
class NoOp implements INodeType {
	description = {
		displayName: 'No Operation',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'Does nothing',
		defaults: { name: 'NoOp' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export const PACKAGE_PREFIX = 'n8n-nodes-baas';

const registry: Record<string, INodeType | IVersionedNodeType> = {
	[`${PACKAGE_PREFIX}.baas`]: new Baas(),
	[`${PACKAGE_PREFIX}.baasDashboard`]: new BaasDashboard(),
	'test.testItems': new TestItems(),
	'n8n-nodes-base.noOp': new NoOp(),
};

/** Every registered node type, in registration order (n8n's credential tester looks through them). */
export function registeredNodeTypes(): Array<INodeType | IVersionedNodeType> {
	return Object.values(registry);
}

/** Registers more node types (the trigger's tests add theirs). */
export function registerNodeType(name: string, nodeType: INodeType) {
	registry[name] = nodeType;
}

export const nodeTypes: INodeTypes = {
	getByName(type: string): INodeType | IVersionedNodeType {
		const found = registry[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return found;
	},
	getByNameAndVersion(type: string, version?: number): INodeType {
		const found = registry[type];
		if (!found) throw new Error(`Unknown node type ${type}`);
		return 'nodeVersions' in found ? found.getNodeType(version) : found;
	},
	getKnownTypes() {
		return {};
	},
};
