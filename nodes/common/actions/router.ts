import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError } from '../transport/outcome';
import { InFlightWindow, paceRequestsOf } from '../transport/pace';
import { positiveIntegerSchema, validField } from '../validation';
import { CONCURRENCY_MAXIMUM, FIRST_READS_IN_FLIGHT, MOST_READS_IN_FLIGHT } from './commonFields';
import { refuseWriteWithReadOnlyCredential } from './readOnly';
import { refuseStateChangeOverMcp } from './toolCaller';
import { outcomeOf } from './writeOutcome';
import { authenticationLabel } from '../authentication';
import { RESOURCES } from './resources';
import type { Authentication } from './selectors';
import { authenticationsFor, operationLabel } from './selectors';
import type { BaasOperation } from './types';
import { OperationItems } from './types';

/**
 * The item a failed input becomes under "On Error: Continue": error, response_code, bank_message and
 * description, flat, for a sheet or a message. With "Continue (using error output)" n8n moves an item to the
 * error output only when its json is { error } or { error, message } (n8n 1.x; 2.x also allows details), so
 * there the item is { error, message }: the error text carries the code in brackets, message what to do.
 * n8n then merges it into the input item.
 */
function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number, toErrorOutput: boolean): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	const outcome = outcomeOf(error);
	if (toErrorOutput) {
		// Only { error, message } reaches the error output, so the outcome leads the message where a sheet can extract it.
		const message = outcome ? `Outcome: ${outcome}. ${error.description ?? ''}`.trim() : (error.description ?? '');
		return { json: { error: error.message, message }, pairedItem };
	}
	const json: IDataObject = { error: error.message };
	if (outcome) json.outcome = outcome;
	if (error.context?.responseCode) json.response_code = error.context.responseCode;
	if (error.context?.bankMessage) json.bank_message = error.context.bankMessage;
	if (error.description) json.description = error.description;
	return { json, pairedItem };
}

/** How many items may be in flight now, and (for a paced run) how long new ones must wait. */
interface ItemPacing {
	readonly limit: number;
	pausedFor?(): number;
}

/**
 * Runs `task` for 0..count-1 with at most `pacing.limit` at once (read again whenever a task ends, so a paced
 * window takes effect at once). Tasks report failure by returning an error; after the first one no new task
 * starts, and that error is returned once the running ones finish.
 */
async function forEachBounded(
	count: number,
	pacing: ItemPacing,
	task: (index: number) => Promise<Error | undefined>,
): Promise<Error | undefined> {
	let next = 0;
	let firstError: Error | undefined;
	// The first item runs alone, so that the credential's token is fetched once and shared, not once per item.
	if (count > 0) firstError = await task(next++);
	return await new Promise((resolve) => {
		let running = 0;
		let waiting = false;
		const launch = () => {
			const more = () => firstError === undefined && next < count;
			const pause = pacing.pausedFor?.() ?? 0;
			if (more() && pause > 0 && !waiting) {
				waiting = true;
				void sleep(pause).then(() => {
					waiting = false;
					launch();
				});
			}
			while (!waiting && more() && running < pacing.limit) {
				running++;
				void task(next++)
					.catch((error: Error) => error)
					.then((failure) => {
						firstError ??= failure;
						running--;
						launch();
					});
			}
			if (running === 0 && !waiting) resolve(firstError);
		};
		launch();
	});
}

/** Refuses, before any request, what the node's Authentication cannot run, naming the node (or Authentication) that can. */
function refuseOtherApi(this: IExecuteFunctions, what: string, offeredBy: Authentication[]): NodeOperationError {
	const needed = [...new Set(offeredBy)].map(authenticationLabel).join(' or ');
	return new NodeOperationError(this.getNode(), `${what} is offered only with Authentication: ${needed}`, {
		description: `Use the ${offeredBy.includes('apiClient') ? 'BaaS' : 'BaaS Dashboard'} node for it (on a version 1 BaaS node: set Authentication to ${needed} and pick that credential), or choose another operation. Nothing was sent to the bank.`,
	});
}

export function findOperation(this: IExecuteFunctions, resource: string, operation: string): BaasOperation {
	const resourceLabel = resource.charAt(0).toUpperCase() + resource.slice(1);
	const found = RESOURCES[resource]?.[operation];
	if (!found && RESOURCES[resource] && !operation) {
		// n8n drops the Operation of a resource the node does not list: a one-API node given the other API's resource.
		throw refuseOtherApi.call(this, resourceLabel, Object.keys(RESOURCES[resource]).flatMap((op) => authenticationsFor(resource, op)));
	}
	if (!found) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not known to this node version`);
	}
	// A saved workflow can name an operation the node's API does not offer: refused here, before any request.
	const authentication = this.getNodeParameter('authentication', 0, 'apiClient') as Authentication;
	const offeredBy = authenticationsFor(resource, operation);
	if (!offeredBy.includes(authentication)) throw refuseOtherApi.call(this, `${resourceLabel} → ${operationLabel(resource, operation)}`, offeredBy);
	return found;
}

/** The one dispatcher: picks the operation, runs it per item (bounded concurrency), applies continueOnFail with pairedItem. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0, '') as string;
	const handler = findOperation.call(this, resource, operation);
	const what = `${resource.charAt(0).toUpperCase()}${resource.slice(1)} → ${operationLabel(resource, operation)}`;
	refuseStateChangeOverMcp(this, what, handler.changesState);
	// One value for the whole run, read from the first item.
	const asked = validField(this, 0, 'Concurrency', positiveIntegerSchema, this.getNodeParameter('options.concurrency', 0, handler.changesState ? 1 : MOST_READS_IN_FLIGHT));
	// Held to the form's maximum whatever its source: an expression, or a read's value n8n kept when the operation was switched.
	const maximum = handler.changesState ? CONCURRENCY_MAXIMUM.stateChange : CONCURRENCY_MAXIMUM.read;
	const concurrency = Math.min(asked, maximum);
	if (asked > maximum) {
		this.logger.warn(`${this.getNode().name}: Concurrency ${asked} is more than this operation allows; ${maximum} items are sent at a time`);
	}
	// Reads find the bank's pace up to Concurrency; state changes keep exactly the number chosen.
	const pacing: ItemPacing = handler.changesState ? { limit: concurrency } : paceRequestsOf(this, new InFlightWindow(concurrency, FIRST_READS_IN_FLIGHT));

	const runs = handler.wholeInput ? Math.min(items.length, 1) : items.length;
	const outputs: INodeExecutionData[][] = new Array(runs);
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const failure = await forEachBounded(runs, pacing, async (itemIndex) => {
		try {
			// Per item, as the credential is read for an item: under continueOnFail each item gets its refusal.
			if (handler.changesState) await refuseWriteWithReadOnlyCredential(this, itemIndex, what);
			const records = await handler.execute.call(this, itemIndex);
			outputs[itemIndex] = records instanceof OperationItems
				? records.items.map((item) => ({ ...item, pairedItem: item.pairedItem ?? { item: itemIndex } }))
				: this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), { itemData: { item: itemIndex } });
			return undefined;
		} catch (error) {
			const nodeError = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) return nodeError;
			outputs[itemIndex] = [errorItem(nodeError, itemIndex, toErrorOutput)];
			return undefined;
		}
	});
	if (failure) throw failure;
	return [outputs.flat()];
}
