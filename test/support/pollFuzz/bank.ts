/**
 * A model of the bank, written from the API contract as this project records it (docs/api-assumptions.md) and
 * docs/polling.md only, not from the engine harness's model or the sandbox's code: the point is an independent check.
 * In-process and synchronous: `request` has the transport's signature (PollInput.request) and answers at once.
 *
 * - Records carry the bank's own created_at (its clock, which the history sets); a write becomes visible at an
 *   instant of n8n's clock (`atMs`), so a record can be written late (created_at in the bank's past) or stamped
 *   in the future.
 * - Lists are newest first by created_at, ties by the internal id (descending), or in 'recorded' order (newest
 *   written first). Page p of size z holds ranks (p-1)*z .. p*z-1; a page cap c serves min(z, c) and counts
 *   pages of that size.
 * - A quota of list requests per minute (n8n's minute) answers as the transport does for code 29 / HTTP 429.
 * - transactionStatus answers the Transfer status record (status pending | successful | failed), 06 for an
 *   unknown reference, 83 at the history's rate.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { bankApiError } from '../../../nodes/common/transport/errors';
import type { bankRequest } from '../../../nodes/common/transport/request';

export type ListShape = 'documented' | 'cursor';
export type ListOrder = 'created' | 'recorded';
export type Status = 'success' | 'pending' | 'failed';
export type Malformation = 'null' | 'noReference' | 'badCreatedAt';
export type Kind = 'collection' | 'transfer';

export interface BankRecord {
	/** Internal id: the write order. */
	id: number;
	reference: string;
	account: string;
	kind: Kind;
	amount: string;
	/** The bank's created_at (its clock). */
	createdMs: number;
	status: Status;
	/** The bank's updated_at of the last status change. */
	updatedMs: number;
	malformed?: Malformation;
}

/** A write to the bank, visible from `atMs` (n8n's clock) on. */
export type Write =
	| { atMs: number; create: Omit<BankRecord, 'updatedMs'> }
	| { atMs: number; update: { reference: string; status: Status; bankMs: number; repaired?: true } };

export interface BankOptions {
	shape: ListShape;
	order: ListOrder;
	/** Most records the bank serves in one page; undefined: as many as asked. */
	pageCap?: number;
	/** Where page P starts: after (P − 1) × the size served (default), or × the size asked. */
	pageOffsets?: 'served' | 'asked';
	/** List requests per minute; undefined: no quota. */
	quotaPerMinute?: number;
	/** Chance (0..1) that a transactionStatus answers 83. */
	statusFailRate: number;
	/** 0..1, drawn from the history's PRNG. */
	random: () => number;
}

type Context = { getNode(): INode };

const REFUSED = { '06': 'transaction not found for the given reference number', '29': 'Too many requests', '83': 'provider error' } as const;

export class Bank {
	readonly records: BankRecord[] = [];
	private readonly byReference = new Map<string, BankRecord>();
	private next = 0;
	private readonly lists = new Map<string, BankRecord[]>();
	/** Each record as listed, until its status changes (serialising is most of a request's cost). */
	private readonly items = new Map<BankRecord, IDataObject>();
	private quotaMinute = -1;
	private quotaUsed = 0;
	/** n8n's clock as the driver last set it. */
	nowMs = 0;
	/** Faults on (quota, 83); off for the drain after the history. */
	private faults = true;
	/** The history has ended: no more writes are applied. */
	private frozen = false;
	listRequests = 0;
	/** References whose status look-up the bank answered 83: they stay pending (docs/polling.md), out of order. */
	readonly refused = new Set<string>();
	statusRequests = 0;

	constructor(
		private readonly writes: Write[],
		private readonly options: BankOptions,
	) {}

	/** Applies the writes visible at `nowMs` (n8n's clock). */
	advanceTo(nowMs: number): void {
		this.nowMs = Math.max(this.nowMs, nowMs);
		if (this.frozen) return;
		let changed = false;
		while (this.next < this.writes.length && this.writes[this.next].atMs <= this.nowMs) {
			const write = this.writes[this.next++];
			changed = true;
			if ('create' in write) {
				const record = { ...write.create, updatedMs: write.create.createdMs };
				this.records.push(record);
				this.byReference.set(record.reference, record);
			} else {
				const record = this.byReference.get(write.update.reference);
				if (record !== undefined) Object.assign(record, { status: write.update.status, updatedMs: write.update.bankMs });
				// A malformed entry the bank lists well from now on (hand-built histories only; the ledger keeps it malformed).
				if (record !== undefined && write.update.repaired === true) delete record.malformed;
				if (record !== undefined) this.items.delete(record);
			}
		}
		if (changed) this.lists.clear();
	}

	/** The history ends: the bank writes nothing more, and answers without faults (the drain). */
	freeze(): void {
		this.frozen = true;
		this.faults = false;
	}

	/** The transport's signature: `request(context, operationName, params, {variant, attempts, timeoutMs})`. */
	readonly request = (async (context: Context, operation: string, params?: IDataObject) => {
		if (operation === 'fetchTransactions') return this.list(context, params ?? {});
		if (operation === 'transactionStatus') return this.status(context, String(params?.reference_number ?? ''));
		throw new Error(`the model bank has no operation ${operation} (the fuzzer uses the API client variant)`);
	}) as typeof bankRequest;

	private refuse(context: Context, code: keyof typeof REFUSED, httpStatus?: number): never {
		throw bankApiError(context.getNode(), { responseCode: code, message: REFUSED[code], httpStatus });
	}

	private list(context: Context, params: IDataObject): IDataObject[] {
		this.listRequests++;
		const quota = this.options.quotaPerMinute;
		if (quota !== undefined && this.faults) {
			const minute = Math.floor(this.nowMs / 60_000);
			if (minute !== this.quotaMinute) [this.quotaMinute, this.quotaUsed] = [minute, 0];
			if (++this.quotaUsed > quota) this.refuse(context, '29', 429);
		}
		const filters = (params.filters ?? {}) as IDataObject;
		const asked = Math.max(1, Math.floor(Number(params.page_size ?? params.limit ?? 20)));
		const size = Math.min(asked, this.options.pageCap ?? asked);
		const page = Math.max(1, Math.floor(Number(params.page ?? 1)));
		return this.sorted(filters)
			.slice((page - 1) * (this.options.pageOffsets === 'asked' ? asked : size), (page - 1) * (this.options.pageOffsets === 'asked' ? asked : size) + size)
			.map((record) => {
				let item = this.items.get(record);
				if (item === undefined) this.items.set(record, (item = this.listed(record)));
				// A copy: the trigger may keep or change what it is given.
				return item === null ? item : { ...item };
			});
	}

	/** The records a list's filters match, in the bank's order (cached until the next write). */
	private sorted(filters: IDataObject): BankRecord[] {
		const key = JSON.stringify(filters);
		const cached = this.lists.get(key);
		if (cached !== undefined) return cached;
		const kind: Kind | undefined = filters.transaction_category === 'collection' ? 'collection' : filters.transaction_category === 'transfer' ? 'transfer' : undefined;
		const type = filters.transaction_type;
		const since = typeof filters.start_date === 'string' ? filters.start_date : undefined;
		const matching = this.records.filter(
			(r) =>
				(kind === undefined || r.kind === kind) &&
				(type === undefined || type === (r.kind === 'collection' ? 'credit' : 'debit')) &&
				(filters.status === undefined || filters.status === r.status) &&
				(filters.account_number === undefined || filters.account_number === r.account) &&
				(filters.reference_number === undefined || filters.reference_number === r.reference) &&
				// The bank's days: the UTC day of its own created_at.
				(since === undefined || new Date(r.createdMs).toISOString().slice(0, 10) >= since),
		);
		matching.sort(this.options.order === 'recorded' ? (a, b) => b.id - a.id : (a, b) => b.createdMs - a.createdMs || b.id - a.id);
		this.lists.set(key, matching);
		return matching;
	}

	/** A record as the integration list writes it (contract fields; 'cursor' adds `id`), or malformed. */
	private listed(r: BankRecord): IDataObject {
		if (r.malformed === 'null') return null as unknown as IDataObject;
		const item: IDataObject = {
			...(this.options.shape === 'cursor' ? { id: idOf(r.id) } : {}),
			reference_number: r.reference,
			account_number: r.account,
			account_name: 'Ada Stores',
			amount: r.amount,
			transaction_type: r.kind === 'collection' ? 'credit' : 'debit',
			transaction_category: r.kind,
			status: r.status,
			channel: 'nip',
			remarks: `${r.kind} ${r.reference}`,
			created_at: new Date(r.createdMs).toISOString(),
		};
		if (r.malformed === 'noReference') delete item.reference_number;
		if (r.malformed === 'badCreatedAt') item.created_at = 'yesterday';
		return item;
	}

	private status(context: Context, reference: string): IDataObject {
		this.statusRequests++;
		const r = this.byReference.get(reference);
		if (r === undefined || r.kind !== 'transfer') this.refuse(context, '06');
		if (this.faults && this.options.random() < this.options.statusFailRate) {
			this.refused.add(reference);
			this.refuse(context, '83');
		}
		return {
			reference_number: r.reference,
			transaction_id: idOf(r.id),
			amount: r.amount,
			transfer_type: 'inter',
			status: r.status === 'success' ? 'successful' : r.status,
			remarks: `transfer ${r.reference}`,
			created_at: new Date(r.createdMs).toISOString(),
			updated_at: new Date(r.updatedMs).toISOString(),
		};
	}
}

/** A UUID-shaped id for the cursor list shape and transaction_id. */
const idOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
