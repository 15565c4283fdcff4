/** Reads one stream's list a page at a time (newest first, as the bank lists), skipping malformed entries. */
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

/**
 * Where a page starts: the paging fields of the request (page number, or the created_at + id cursor), and the
 * page's size when it must be read again exactly as it was first read (`limit`).
 */
export type Position = IDataObject;

export interface ListOptions {
	variant: ApiVariant;
	accountNumber?: string;
	pageSize: number;
	/** Extra filters (status, start_date). */
	filters?: IDataObject;
}

export interface Page {
	/** Valid records of the page, newest first as listed. */
	listed: Listed[];
	/** The position of the next (older) page, or undefined when this page was the last. */
	next?: Position;
}

const DAY_MS = 86_400_000;

/**
 * The date filter: from the day before the floor's UTC day, so a bank whose days are in another time zone still
 * includes the floor. It only bounds the list; reading stops at the floor anyway.
 */
export function sinceFilter(floorMs: number | null): IDataObject {
	return floorMs === null ? {} : { start_date: new Date(floorMs - DAY_MS).toISOString().slice(0, 10) };
}

export function topOf(pageSize: number): Position {
	return { page: 1, page_size: pageSize };
}

/** One list request. A null entry or one without reference_number or created_at is skipped with a warning. */
export async function readPage(context: IPollFunctions, stream: Stream, position: Position, options: ListOptions): Promise<Page> {
	const filters: IDataObject = {
		...stream.filters,
		...options.filters,
		...(options.accountNumber ? { account_number: options.accountNumber } : {}),
	};
	const size = typeof position.limit === 'number' ? position.limit : options.pageSize;
	const batch = await bankRequest<unknown[]>(context, 'fetchTransactions', { filters, limit: size, ...position }, {
		variant: options.variant,
		attempts: 1,
	});
	const entries = Array.isArray(batch) ? batch : [];
	const listed: Listed[] = [];
	let skipped = 0;
	for (const entry of entries) {
		const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as IDataObject) : undefined;
		const stamp = record === undefined ? undefined : stampOf(record);
		if (record === undefined || stamp === undefined) skipped++;
		else listed.push({ ...stamp, record });
	}
	if (skipped > 0) {
		context.logger.warn(
			`BaaS (Polling) Trigger "${context.getNode().name}" skipped ${skipped} entr${skipped === 1 ? 'y' : 'ies'} of the bank's ${stream.name} list that had no reference_number or created_at`,
		);
	}
	if (entries.length < size) return { listed };
	const last = entries[entries.length - 1] as IDataObject | null;
	const next: Position =
		typeof last?.id === 'string' && typeof last.created_at === 'string'
			? { cursor_created_at: last.created_at, cursor_id: last.id, limit: size }
			: { page: Number(position.page ?? 1) + 1, page_size: size };
	if (JSON.stringify({ ...next, limit: size }) === JSON.stringify({ ...position, limit: size })) {
		throw new NodeApiError(context.getNode(), { message: 'the list cursor did not advance' }, {
			message: 'Stopped reading the transaction list: the bank returned the same position twice',
			description: 'The trigger keeps its place; it tries again at the next poll.',
		});
	}
	return { listed, next };
}

/**
 * Every record of the stream at or after the cursor's floor, oldest first, reading at most `maxRecords` (for
 * Fetch Test Event and a new trigger's first look, which need only the newest few).
 */
export async function readBackToFloor(
	context: IPollFunctions,
	stream: Stream,
	cursor: StreamCursor,
	options: ListOptions & { maxRecords?: number },
): Promise<{ listed: Listed[]; requests: number }> {
	const byReference = new Map<string, Listed>();
	let position: Position | undefined = topOf(options.pageSize);
	let requests = 0;
	const listOptions = { ...options, filters: { ...sinceFilter(cursor.floorMs), ...options.filters } };
	while (position !== undefined) {
		const page: Page = await readPage(context, stream, position, listOptions);
		requests++;
		let passedFloor = false;
		for (const entry of page.listed) {
			if (cursor.floorMs !== null && entry.createdMs < cursor.floorMs) {
				passedFloor = true;
				break;
			}
			if (!byReference.has(entry.reference)) byReference.set(entry.reference, entry);
		}
		const enough = options.maxRecords !== undefined && byReference.size >= options.maxRecords;
		position = passedFloor || enough ? undefined : page.next;
	}
	// Read newest first; reversed, then a stable sort, so records of one instant keep the bank's own order.
	const listed = [...byReference.values()].reverse().sort((a, b) => a.createdMs - b.createdMs);
	return { listed, requests };
}
