/**
 * What the Poll Trigger watches and what it emits. Two streams, each a filtered transaction list with its own
 * place in it: collections (credits of category collection) and transfers (debits of category transfer). Items have
 * the BaaS Trigger's shapes (Whole Event: event, data, created_at; Event Data Only: the record), so a workflow
 * can switch between the two triggers without changing the nodes after it.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { EventKind } from '../common/events';
import type { OutputShape, PollSettings } from './settings';

export type StreamName = 'collections' | 'transfers';

export interface Stream {
	name: StreamName;
	/** The list filters (besides the date and account filters). */
	filters: IDataObject;
}

const STREAMS: Record<StreamName, { filters: IDataObject; kinds: EventKind[] }> = {
	collections: {
		filters: { transaction_type: 'credit', transaction_category: 'collection' },
		kinds: ['COLLECTION_SUCCESS'],
	},
	transfers: {
		filters: { transaction_type: 'debit', transaction_category: 'transfer' },
		kinds: ['TRANSFER_SUCCESS', 'TRANSFER_FAILED'],
	},
};

/** The streams the selected events need, in a fixed order. */
export function streamsFor(settings: PollSettings): Stream[] {
	return (Object.keys(STREAMS) as StreamName[])
		.filter((name) => STREAMS[name].kinds.some((kind) => settings.events.includes(kind)))
		.map((name) => ({ name, filters: { ...STREAMS[name].filters } }));
}

export type Outcome = 'success' | 'failed' | 'pending';

/** A status as the lists (success) or transaction_status (successful) write it. */
export function outcomeOf(status: unknown): Outcome {
	const s = String(status ?? '').toLowerCase();
	if (s === 'success' || s === 'successful') return 'success';
	if (s === 'failed') return 'failed';
	return 'pending';
}

/** The event a final record of a stream stands for; undefined for a failed collection (the bank sends none). */
export function eventKindOf(stream: StreamName, outcome: Exclude<Outcome, 'pending'>): EventKind | undefined {
	if (stream === 'collections') return outcome === 'success' ? 'COLLECTION_SUCCESS' : undefined;
	return outcome === 'success' ? 'TRANSFER_SUCCESS' : 'TRANSFER_FAILED';
}

/** One output item in the shape chosen by Output. */
export function toItem(kind: EventKind, data: IDataObject, output: OutputShape, nowIso: string): INodeExecutionData {
	if (output === 'data') return { json: { ...data } };
	const happenedAt = typeof data.updated_at === 'string' ? data.updated_at : data.created_at;
	return {
		json: {
			event: kind,
			data: { ...data },
			created_at: typeof happenedAt === 'string' ? happenedAt : nowIso,
			receivedAt: nowIso,
			source: 'poll',
		},
	};
}

/** The reference and created_at of a listed record, or undefined when it lacks either. */
export function stampOf(record: IDataObject): { reference: string; createdMs: number } | undefined {
	const reference = record.reference_number;
	const createdMs = typeof record.created_at === 'string' ? Date.parse(record.created_at) : NaN;
	if (typeof reference !== 'string' || reference === '' || !Number.isFinite(createdMs)) return undefined;
	return { reference, createdMs };
}
