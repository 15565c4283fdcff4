/**
 * The floor of a reconciliation read: a node that reads every page of a period exactly as the reconciliation
 * operations do (eachPage: pages of READING_PAGE_SIZE, through the package's transport inside n8n) and keeps
 * nothing but a count. Benchmarks 6 and 7 compare against it: what a run costs beyond it is the operation's own.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { eachPage } from '../../nodes/common/actions/reconciliation/pages';
import { API } from '../../test/engine/harness/bankFixture';
import type { TestCredentialsHelper } from '../../test/engine/harness/credentialsHelper';
import { registerNodeType } from '../../test/engine/harness/nodeTypes';
import type { NodeRun } from '../../test/engine/harness/runNode';
import { runNode } from '../../test/engine/harness/runNode';

const TYPE = 'bench.readOnly';

class ReadOnly implements INodeType {
	description = {
		displayName: 'Read only (benchmark)',
		name: 'benchReadOnly',
		group: ['transform'],
		version: 1,
		description: 'Reads every page of fetch_transactions for the filters and keeps nothing',
		defaults: { name: 'Read only' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'baasApi', required: true }],
		properties: [{ displayName: 'Filters (JSON)', name: 'filters', type: 'string', default: '{}' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const filters = JSON.parse(String(this.getNodeParameter('filters', 0))) as IDataObject;
		let count = 0;
		await eachPage(this, 'fetchTransactions', { filters }, { itemIndex: 0, notMade: 'Not read', list: 'the transactions' }, (page) => {
			count += page.length;
		});
		return [[{ json: { count } }]];
	}
}

let registered = false;

/** Reads every page of fetch_transactions for `filters` with the API-client credential; its one item holds the count. */
export async function readOnly(credentials: TestCredentialsHelper, filters: IDataObject): Promise<NodeRun> {
	if (!registered) registerNodeType(TYPE, new ReadOnly());
	registered = true;
	return await runNode(credentials, { nodeType: TYPE, parameters: { filters: JSON.stringify(filters) }, credentials: API });
}
