/** "Fetch Test Event": the most recent event that matches the node's settings, without moving its cursor. */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { variantOf } from '../Baas/transport/request';
import { emptyCursor } from './cursor';
import { eventKindOf, outcomeOf, streamsFor, toItem } from './events';
import { readBackToFloor } from './listing';
import type { PollSettings } from './settings';
import { currentStatus } from './status';

/** Records looked at per stream: enough to find a recent event, few enough to answer at once. */
const RECENT = 20;
/** transaction_status look-ups at most per stream, for the API client's transfer records. */
const LOOKUPS = 3;

export async function fetchTestEvent(context: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][] | null> {
	const variant = variantOf(context);
	let best: { kind: ReturnType<typeof eventKindOf>; record: IDataObject; createdMs: number } | undefined;
	for (const stream of streamsFor(settings)) {
		const { listed } = await readBackToFloor(context, stream, emptyCursor(null), {
			variant,
			accountNumber: settings.accountNumber,
			pageSize: RECENT,
			maxRecords: RECENT,
		});
		let lookups = 0;
		for (const entry of listed.reverse()) {
			if (best !== undefined && entry.createdMs <= best.createdMs) break;
			const outcome = outcomeOf(entry.record.status);
			if (outcome === 'pending') continue;
			const kind = eventKindOf(stream.name, outcome);
			if (kind === undefined || !settings.events.includes(kind)) continue;
			let record: IDataObject | undefined = entry.record;
			if (stream.name === 'transfers' && variant === 'api') {
				if (lookups++ >= LOOKUPS) break;
				record = (await currentStatus(context, stream, entry.reference, variant)).record;
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
