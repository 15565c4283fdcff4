/** Reads one stream's newest records, back to the cursor's floor and no further. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { bankRequest } from '../Baas/transport/request';
import type { ApiVariant } from '../Baas/transport/routes';
import type { Stamp, StreamCursor } from './cursor';
import type { Stream } from './events';
import { stampOf } from './events';

export interface Listed extends Stamp {
	record: IDataObject;
}

const DAY_MS = 86_400_000;

/**
 * The date filter: from the day before the floor's UTC day, so a bank whose days are in another time zone still
 * includes the floor. It only bounds the list; paging stops at the floor anyway, which is what keeps the requests
 * per poll flat however many transactions the day holds.
 */
function dateFilter(floorMs: number | null): IDataObject {
	return floorMs === null ? {} : { start_date: new Date(floorMs - DAY_MS).toISOString().slice(0, 10) };
}

/**
 * Every record of the stream created at or after the cursor's floor, oldest first, with the number of list
 * requests made. Newest-first pages are followed by created_at (and id) cursor when the records carry an id,
 * else by page number; records repeated by a shifting page are read once.
 */
export async function readBackToFloor(
	context: IPollFunctions,
	stream: Stream,
	cursor: StreamCursor,
	options: { variant: ApiVariant; accountNumber?: string; pageSize: number; maxRecords?: number },
): Promise<{ listed: Listed[]; requests: number }> {
	const filters: IDataObject = {
		...stream.filters,
		...dateFilter(cursor.floorMs),
		...(options.accountNumber ? { account_number: options.accountNumber } : {}),
	};
	const size = options.pageSize;
	const byReference = new Map<string, Listed>();
	let position: IDataObject = { page: 1, page_size: size };
	let requests = 0;
	for (let page = 1; ; page++) {
		const batch = await bankRequest<IDataObject[]>(context, 'fetchTransactions', { filters, limit: size, ...position }, {
			variant: options.variant,
			attempts: 1,
		});
		requests++;
		const records = Array.isArray(batch) ? batch : [];
		let passedFloor = false;
		for (const record of records) {
			const stamp = stampOf(record);
			if (stamp === undefined) {
				context.logger.warn(`BaaS Poll Trigger "${context.getNode().name}" skipped a record without reference_number or created_at`);
				continue;
			}
			if (cursor.floorMs !== null && stamp.createdMs < cursor.floorMs) {
				passedFloor = true;
				break;
			}
			if (!byReference.has(stamp.reference)) byReference.set(stamp.reference, { ...stamp, record });
		}
		const done = passedFloor || records.length < size || (options.maxRecords !== undefined && byReference.size >= options.maxRecords);
		if (done) break;
		const last = records[records.length - 1];
		const next: IDataObject =
			typeof last.id === 'string' && typeof last.created_at === 'string'
				? { cursor_created_at: last.created_at, cursor_id: last.id }
				: { page: page + 1, page_size: size };
		if (JSON.stringify(next) === JSON.stringify(position)) {
			throw new NodeApiError(context.getNode(), { message: 'the list cursor did not advance' }, {
				message: 'Stopped reading the transaction list: the bank returned the same position twice',
				description: 'Nothing was emitted and the trigger keeps its place; it tries again at the next poll.',
			});
		}
		position = next;
	}
	// Read newest first; reversed, then a stable sort, so records of one instant keep the bank's own order.
	const listed = [...byReference.values()].reverse().sort((a, b) => a.createdMs - b.createdMs);
	return { listed, requests };
}
