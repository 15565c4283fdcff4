/** "Fetch Test Event": the most recent event that matches the node's settings, without moving its place. */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { bankRequest, variantOf } from '../common/transport/request';
import { Budget } from './budget';
import { eventKindOf, outcomeOf, streamsFor, toItem } from './events';
import { readListPage } from './reader';
import type { PollSettings } from './settings';
import { currentStatus } from './status';

/** Records looked at per stream: enough to find a recent event, few enough to answer at once. */
const RECENT = 20;
/** transaction_status look-ups at most per stream, for the API client's transfer records. */
const LOOKUPS = 3;

export async function fetchTestEvent(context: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][] | null> {
	const variant = variantOf(context);
	let best: { kind: ReturnType<typeof eventKindOf>; record: IDataObject; createdMs: number } | undefined;
	const run = { request: bankRequest, context, budget: new Budget(Infinity), progressed: false, malformed: 0 };
	for (const stream of streamsFor(settings)) {
		const filters = { ...stream.filters, ...(settings.accountNumber ? { account_number: settings.accountNumber } : {}) };
		// A budget without limit always gives the request.
		const slots = (await readListPage(run, { filters, variant }, { page: 1, size: RECENT }))?.slots ?? [];
		const listed = slots.filter((slot) => slot.reference !== undefined) as Array<{ reference: string; createdMs: number; record: IDataObject }>;
		let lookups = 0;
		for (const entry of listed) {
			if (best !== undefined && entry.createdMs <= best.createdMs) break;
			const outcome = outcomeOf(entry.record.status);
			if (outcome === 'pending') continue;
			const kind = eventKindOf(stream.name, outcome);
			if (kind === undefined || !settings.events.includes(kind)) continue;
			let record: IDataObject | undefined = entry.record;
			if (stream.name === 'transfers' && variant === 'api') {
				if (lookups++ >= LOOKUPS) break;
				record = (await currentStatus(bankRequest, context, stream, entry.reference, variant)).record;
			}
			if (record !== undefined) {
				best = { kind, record, createdMs: entry.createdMs };
				break;
			}
		}
	}
	if (best?.kind === undefined) return null;
	return [[toItem(best.kind, best.record, settings.output, new Date().toISOString())]];
}
