/**
 * Signed webhook delivery. The body is serialized once and those exact bytes are signed and sent
 * (axios gets a string and must not re-serialize it), so a receiver can verify the HMAC over the raw body.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import axios from 'axios';
import type { FaultRegistry } from '../http/faults';
import type { EventKind, Webhook } from '../state/records';
import { iso } from '../data/time';
import type { TimerSet } from './timers';
import type { DeliveryLogEntry } from '../types';

export interface RetryPolicy {
	attempts: number;
	baseDelayMs: number;
	/**
	 * A registration is disabled after this many deliveries in a row where every attempt was answered 404/410 or
	 * refused (0: never), as real providers disable failing endpoints. Default DEAD_DELIVERIES_BEFORE_DISABLE.
	 */
	disableAfter?: number;
	/** How long one attempt waits for the receiver's answer before it counts as failed and is retried. Default DELIVERY_TIMEOUT_MS. */
	timeoutMs?: number;
}

/**
 * Three events in a row, each tried `attempts` times: a URL of an n8n that is gone, or a test URL whose listen has
 * ended, costs at most 3 × 5 attempts and then nothing; a URL that only blips (a restart) is not dropped.
 */
export const DEAD_DELIVERIES_BEFORE_DISABLE = 3;

/** An answer that says nothing listens at this URL (n8n answers 404 for a webhook it does not know). */
function isDead(status: number, code: string | undefined): boolean {
	return status === 404 || status === 410 || code === 'ECONNREFUSED';
}

/** Retries when the sandbox is started without webhookRetry: five attempts, waits of 0.5, 1, 2 and 4 s between them. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500 };

const LOG_CAP = 10_000;
const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * Deliveries in flight to one URL at most; the rest wait their turn, as in a bank's delivery queue. Without a
 * bound, a burst of 500 collections opened 500 connections to one n8n at once, which then answered none of
 * them within the timeout.
 */
export const DELIVERIES_IN_FLIGHT_PER_URL = 10;

export function sign(body: string, secret: string): string {
	return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export class WebhookDispatcher {
	readonly log: DeliveryLogEntry[] = [];
	retry: RetryPolicy;
	private readonly controllers = new Set<AbortController>();
	// keepAlive off: no idle sockets outlive a delivery (tests must exit without open handles).
	private readonly httpAgent = new http.Agent({ keepAlive: false });
	private readonly httpsAgent = new https.Agent({ keepAlive: false });
	private closed = false;
	/** Per URL: deliveries in flight, and the turns of those waiting. */
	private readonly lanes = new Map<string, { active: number; waiting: Array<() => void> }>();
	/** bumped by cancelAll: chains from before a reset stop and log nothing more */
	private generation = 0;

	constructor(
		retry: RetryPolicy,
		private readonly faults: FaultRegistry,
		private readonly timers: TimerSet,
		private readonly logLine: (line: string) => void,
	) {
		this.retry = retry;
	}

	/** Fire-and-forget: one delivery chain per subscribed webhook. */
	dispatch(hooks: Webhook[], event: EventKind, data: unknown, reference: string, secret: string): void {
		if (this.closed) return;
		for (const hook of hooks) {
			if (!hook.events.includes(event) || hook.disabledAtMs !== undefined) continue;
			const body = JSON.stringify({ event, data, created_at: iso(Date.now()) });
			const delivery = { url: hook.url, event, reference, body, signature: sign(body, secret), id: randomUUID() };
			const copies = this.faults.duplicateDelivery(hook.url, event) ? 2 : 1;
			for (let i = 0; i < copies; i++) void this.deliver(delivery).then((outcome) => this.account(hook, outcome));
		}
	}

	/** Waits for a free place among the deliveries in flight to `url`; returns the function that frees it. */
	private async turn(url: string): Promise<() => void> {
		const lane = this.lanes.get(url) ?? { active: 0, waiting: [] };
		this.lanes.set(url, lane);
		if (lane.active >= DELIVERIES_IN_FLIGHT_PER_URL) await new Promise<void>((resolve) => lane.waiting.push(resolve));
		lane.active++;
		return () => {
			lane.active--;
			lane.waiting.shift()?.();
			if (lane.active === 0 && lane.waiting.length === 0) this.lanes.delete(url);
		};
	}

	/** Counts deliveries that reached nobody; disables the registration after enough of them in a row. */
	private account(hook: Webhook, outcome: 'delivered' | 'failed' | 'dead' | 'cancelled'): void {
		if (outcome === 'cancelled' || hook.disabledAtMs !== undefined) return;
		hook.deadDeliveries = outcome === 'dead' ? (hook.deadDeliveries ?? 0) + 1 : 0;
		const limit = this.retry.disableAfter ?? DEAD_DELIVERIES_BEFORE_DISABLE;
		if (limit > 0 && hook.deadDeliveries >= limit) {
			hook.disabledAtMs = Date.now();
			this.logLine(`webhook ${hook.url} disabled: ${limit} deliveries in a row reached nobody (404/410 or refused); register it again to turn it back on`);
		}
	}

	private async deliver(d: { url: string; event: string; reference: string; body: string; signature: string; id: string }): Promise<'delivered' | 'failed' | 'dead' | 'cancelled'> {
		const gen = this.generation;
		const stopped = () => this.closed || gen !== this.generation;
		let dead = true;
		for (let attempt = 1; attempt <= this.retry.attempts; attempt++) {
			if (stopped()) return 'cancelled';
			const release = await this.turn(d.url);
			if (stopped()) {
				release();
				return 'cancelled';
			}
			const controller = new AbortController();
			this.controllers.add(controller);
			let status = 0;
			let error: string | undefined;
			let code: string | undefined;
			try {
				const res = await axios.post(d.url, d.body, {
					headers: {
						'Content-Type': 'application/json',
						'X-Service-Signature': d.signature,
						'X-Service-Event': d.event,
						'X-Service-Delivery-Id': d.id,
						'User-Agent': 'baas-sandbox-webhooks/1',
					},
					transformRequest: [(body: string) => body],
					responseType: 'text',
					validateStatus: () => true,
					timeout: this.retry.timeoutMs ?? DELIVERY_TIMEOUT_MS,
					maxRedirects: 0,
					proxy: false,
					signal: controller.signal,
					httpAgent: this.httpAgent,
					httpsAgent: this.httpsAgent,
				});
				status = res.status;
			} catch (err) {
				error = err instanceof Error ? err.message : String(err);
				code = (err as { code?: string }).code;
			} finally {
				this.controllers.delete(controller);
				release();
			}
			if (stopped()) return 'cancelled';
			this.record({ url: d.url, event: d.event, reference: d.reference, attempt, status, body: d.body, signature: d.signature, delivery_id: d.id, at: iso(Date.now()), ...(error ? { error } : {}) });
			this.logLine(`webhook ${d.event} -> ${d.url} attempt ${attempt}: ${status || error}`);
			if (status >= 200 && status < 300) return 'delivered';
			dead &&= isDead(status, code);
			if (attempt < this.retry.attempts) {
				const completed = await this.timers.sleep(this.retry.baseDelayMs * 2 ** (attempt - 1));
				if (!completed) return 'cancelled';
			}
		}
		return dead ? 'dead' : 'failed';
	}

	private record(entry: DeliveryLogEntry): void {
		this.log.push(entry);
		if (this.log.length > LOG_CAP) this.log.splice(0, this.log.length - LOG_CAP);
	}

	/** Stops retries and aborts deliveries in flight (reset keeps the dispatcher usable). */
	cancelAll(): void {
		this.generation++;
		for (const c of this.controllers) c.abort();
		this.controllers.clear();
	}

	close(): void {
		this.closed = true;
		this.cancelAll();
		this.httpAgent.destroy();
		this.httpsAgent.destroy();
	}
}
