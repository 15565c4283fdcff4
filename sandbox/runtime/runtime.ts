/** One running sandbox: the bank plus everything around it (config, auth, faults, webhooks, timers, logs). */
import { randomBytes } from 'node:crypto';
import { AuthService } from '../security/auth';
import { FaultRegistry } from '../http/faults';
import * as present from '../http/present';
import { Bank } from '../state/bank';
import { startOfTodayUtc } from '../data/fixtures';
import type { EventKind, Transaction, Transfer } from '../state/records';
import { TimerSet } from './timers';
import type { ConfigurableOptions, ListOrder, ListServed, ListShape, PageOffsets, RequestLogEntry, SandboxConfig, SandboxOptions } from '../types';
import type { ListPolicy } from '../state/listing';
import { ListQuota } from './listQuota';
import { DEFAULT_RETRY, WebhookDispatcher } from './webhooks';
import { ChatInbox } from './chat';

const REQUEST_LOG_CAP = 50_000;


const LIST_SHAPES: readonly ListShape[] = ['documented', 'cursor'];
const LIST_ORDERS: readonly ListOrder[] = ['created', 'recorded'];
const PAGE_OFFSETS: readonly PageOffsets[] = ['served', 'asked'];

/** null, or a whole number of at least 1 (a page cap, a quota). */
function checkedLimit(key: string, value: number | null): number | null {
	if (value !== null && (!Number.isInteger(value) || value < 1)) throw new Error(`${key}: must be a whole number >= 1, or null`);
	return value;
}

export class Runtime {
	readonly bank: Bank;
	readonly config: SandboxConfig;
	readonly timers = new TimerSet();
	readonly faults: FaultRegistry;
	readonly webhooks: WebhookDispatcher;
	readonly auth: AuthService;
	readonly requestLog: RequestLogEntry[] = [];
	readonly chat = new ChatInbox();
	readonly log: (line: string) => void;
	readonly listQuota = new ListQuota(() => this.config.listQuotaPerMinute);
	private listServedHooks = new Set<(served: ListServed) => void>();
	private readonly settleTimers = new Map<Transfer, NodeJS.Timeout>();

	constructor(options: SandboxOptions) {
		const seed = options.seed ?? 42;
		this.log = options.log ?? (() => undefined);
		this.config = {
			tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
			dashboardTokenTtlSeconds: options.dashboardTokenTtlSeconds ?? 3600,
			interSettleDelayMs: options.interSettleDelayMs ?? 3000,
			deliverWebhooks: options.deliverWebhooks ?? true,
			listShape: 'documented',
			pageCap: null,
			pageOffsets: 'served',
			listQuotaPerMinute: null,
			listOrder: 'created',
		};
		this.configure(options);
		this.bank = new Bank({ transactions: options.transactions ?? 200, seed, historyEndMs: options.historyEndMs ?? startOfTodayUtc() });
		this.faults = new FaultRegistry(seed);
		this.webhooks = new WebhookDispatcher(
			options.webhookRetry ?? DEFAULT_RETRY,
			this.faults,
			this.timers,
			this.log,
		);
		// A fresh signing key per process: tokens from an earlier sandbox run are invalid here (41).
		this.auth = new AuthService(() => this.bank, randomBytes(32), () => ({
			api: this.config.tokenTtlSeconds,
			web: this.config.dashboardTokenTtlSeconds,
		}));
	}

	configure(opts: ConfigurableOptions): void {
		for (const key of ['tokenTtlSeconds', 'dashboardTokenTtlSeconds', 'interSettleDelayMs'] as const) {
			const value = opts[key];
			if (value !== undefined) {
				if (!Number.isFinite(value) || value < 0) throw new Error(`${key}: must be a number >= 0`);
				this.config[key] = value;
			}
		}
		if (opts.deliverWebhooks !== undefined) this.config.deliverWebhooks = opts.deliverWebhooks;
		if (opts.listShape !== undefined) {
			if (!LIST_SHAPES.includes(opts.listShape)) throw new Error(`listShape: must be one of ${LIST_SHAPES.join(', ')}`);
			this.config.listShape = opts.listShape;
		}
		if (opts.listOrder !== undefined) {
			if (!LIST_ORDERS.includes(opts.listOrder)) throw new Error(`listOrder: must be one of ${LIST_ORDERS.join(', ')}`);
			this.config.listOrder = opts.listOrder;
		}
		if (opts.pageCap !== undefined) this.config.pageCap = checkedLimit('pageCap', opts.pageCap);
		if (opts.pageOffsets !== undefined) {
			if (!PAGE_OFFSETS.includes(opts.pageOffsets)) throw new Error(`pageOffsets: must be one of ${PAGE_OFFSETS.join(', ')}`);
			this.config.pageOffsets = opts.pageOffsets;
		}
		if (opts.listQuotaPerMinute !== undefined) this.config.listQuotaPerMinute = checkedLimit('listQuotaPerMinute', opts.listQuotaPerMinute);
	}

	/** How transaction and settlement lists are ordered and paged now. */
	listPolicy(): ListPolicy {
		return { order: this.config.listOrder, pageCap: this.config.pageCap, pageOffsets: this.config.pageOffsets, cursorIds: this.config.listShape === 'cursor' };
	}

	/** Lists whose items carry `id` in every shape (accounts, members): created order, cursor_id honoured, the cap. */
	identifiedListPolicy(): ListPolicy {
		return { order: 'created', pageCap: this.config.pageCap, pageOffsets: this.config.pageOffsets, cursorIds: true };
	}

	onListServed(callback: (served: ListServed) => void): () => void {
		this.listServedHooks.add(callback);
		return () => this.listServedHooks.delete(callback);
	}

	/** After a transaction or settlement page went out: the hooks may add records for the next page to see. */
	listServed(served: ListServed): void {
		for (const hook of [...this.listServedHooks]) {
			try {
				hook(served);
			} catch (err) {
				this.log(`onListServed hook failed: ${err instanceof Error ? err.message : String(err)}`);
			}
		}
	}

	recordRequest(entry: RequestLogEntry): void {
		this.requestLog.push(entry);
		if (this.requestLog.length > REQUEST_LOG_CAP) this.requestLog.splice(0, this.requestLog.length - REQUEST_LOG_CAP);
	}

	private emit(businessId: string, kind: EventKind, data: unknown, reference: string): void {
		const business = this.bank.businesses.get(businessId);
		if (!business) return;
		if (!this.config.deliverWebhooks) {
			this.log(`webhook ${kind} ${reference} not delivered (webhooks are off)`);
			return;
		}
		const hooks = this.bank.webhooks.filter((w) => w.businessId === businessId);
		this.webhooks.dispatch(hooks, kind, data, reference, business.webhookSecret);
	}

	emitCollection(tx: Transaction): void {
		this.emit(tx.businessId, 'COLLECTION_SUCCESS', present.txApi(tx, this.config.listShape), tx.reference);
	}

	/** After funds_transfer: intra is final already; inter settles after interSettleDelayMs. */
	afterTransfer(t: Transfer): void {
		if (t.status === 'pending') {
			this.settleTimers.set(t, this.timers.after(this.config.interSettleDelayMs, () => this.settle(t)));
		} else {
			this.emitTransferOutcome(t);
		}
	}

	private emitTransferOutcome(t: Transfer): void {
		this.emit(t.businessId, t.status === 'successful' ? 'TRANSFER_SUCCESS' : 'TRANSFER_FAILED', present.transfer(t), t.reference);
	}

	private settle(t: Transfer): void {
		const timer = this.settleTimers.get(t);
		if (timer) this.timers.cancel(timer);
		this.settleTimers.delete(t);
		if (t.status !== 'pending') return;
		this.bank.finalizeTransfer(t, Date.now());
		this.log(`transfer ${t.reference} ${t.status}`);
		this.emitTransferOutcome(t);
	}

	settleAll(): void {
		for (const t of this.bank.pendingTransfers()) this.settle(t);
	}

	reset(): void {
		this.timers.clearAll();
		this.settleTimers.clear();
		this.webhooks.cancelAll();
		this.webhooks.log.length = 0;
		this.requestLog.length = 0;
		this.faults.clear();
		this.chat.clear();
		this.auth.resetLockouts();
		this.listQuota.reset();
		this.listServedHooks.clear();
		this.bank.reset();
	}

	close(): void {
		this.timers.clearAll();
		this.settleTimers.clear();
		this.webhooks.close();
	}
}
