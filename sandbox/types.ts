/** Public types of the sandbox bank's programmatic interface (tests and scripts code against these names). */
import type { Bank } from './state/bank';

export interface SandboxOptions {
	/** 0 (default) = a random free port. */
	port?: number;
	/** Default '127.0.0.1'. */
	host?: string;
	/** Integration JWT lifetime in seconds, default 3600. */
	tokenTtlSeconds?: number;
	/** Dashboard JWT lifetime in seconds, default 3600. */
	dashboardTokenTtlSeconds?: number;
	/** Inter-bank transfer pending -> final, default 3000 ms. */
	interSettleDelayMs?: number;
	/** Generated transaction history, default 200. */
	transactions?: number;
	/** PRNG seed, default 42: same seed (and history end), same data. */
	seed?: number;
	/** The generated history covers the 120 days before this instant (ms). Default: the start of today, UTC. */
	historyEndMs?: number;
	/**
	 * false: deliver no webhooks at all (an n8n the bank cannot reach); create_webhook still succeeds. Default true.
	 */
	deliverWebhooks?: boolean;
	/**
	 * Webhook delivery retries, default { attempts: 5, baseDelayMs: 500 } (waits double each time); disableAfter:
	 * deliveries in a row that reach nobody (404/410 or refused) before the URL is disabled, default 3, 0 = never.
	 */
	webhookRetry?: { attempts: number; baseDelayMs: number; disableAfter?: number };
	/** Default: silent. */
	log?: (line: string) => void;
}

export type ConfigurableOptions = Partial<
	Pick<SandboxOptions, 'tokenTtlSeconds' | 'dashboardTokenTtlSeconds' | 'interSettleDelayMs' | 'deliverWebhooks'>
>;

export interface SeedInfo {
	clientId: string;
	clientSecret: string;
	webhookSecret: string;
	dashboardEmail: string;
	dashboardPassword: string;
	businessName: string;
	poolAccountNumber: string;
	accounts: Array<{ account_number: string; account_name: string; account_type: string; status: string }>;
	foreignAccountNumber: string;
	blockedAccountNumber: string;
	closedAccountNumber: string;
	externalAccounts: Array<{ bank_code: string; account_number: string; account_name: string }>;
	failingBeneficiaries: string[];
	failingIdentities: string[];
	ownBankCode: '090823';
	/** Where the generated history ends (ISO 8601): the start of today (UTC) unless the bank was started with another. */
	historyEnd: string;
}

/** A fault injected through addFault() or POST /__sandbox/faults. */
export interface FaultSpec {
	/** Substring of the request path (or, for duplicateWebhooks, of the webhook URL or event kind); absent = all. */
	match?: string;
	/** Answer with this response_code instead of handling the request (HTTP status mapped as for real errors). */
	errorCode?: string;
	/** With errorCode: answer with this HTTP status instead of the usual one (e.g. 42 inside an HTTP 200). */
	httpStatus?: number;
	/** With errorCode: the message repeats the request's Authorization header, as a careless bank might. */
	echoAuthorization?: boolean;
	/** Probability 0..1 that a matching request is hit (seeded PRNG), default 1. */
	errorRate?: number;
	/** Delay before the request is handled. */
	latencyMs?: number;
	/**
	 * Destroy the socket with no response, before or after the state change; 'midAnswer': after it, once the
	 * headers and half the body are sent.
	 */
	drop?: 'before' | 'after' | 'midAnswer';
	/** After the state change, send the headers and half the body, then nothing more (the connection stays open). */
	stallAnswer?: boolean;
	/**
	 * Answer HTTP 429, response_code "29", with this Retry-After; with perSecond, only the matching requests
	 * beyond that many in the same clock second (a bank's limit by load rather than by chance).
	 */
	rateLimit?: { retryAfterSeconds: number; perSecond?: number };
	/** Send every matching webhook delivery twice (same delivery id, body and signature). */
	duplicateWebhooks?: boolean;
	/** Apply to the next N hits only, then expire. */
	times?: number;
}

export interface RequestLogEntry {
	at: string;
	method: string;
	path: string;
	/** HTTP status, 0 when a fault dropped the connection or cut the answer short. */
	status: number;
	/** Milliseconds from the request's arrival to its answer (or drop). */
	ms: number;
	/** '' when the connection was dropped. */
	response_code: string;
}

export interface DeliveryLogEntry {
	url: string;
	event: string;
	reference: string;
	attempt: number;
	/** HTTP status of the receiver's answer, 0 for a network error. */
	status: number;
	body: string;
	signature: string;
	delivery_id: string;
	at: string;
	error?: string;
}

export interface SandboxHandle {
	url: string;
	port: number;
	seed: SeedInfo;
	bank: Bank;
	requests(): RequestLogEntry[];
	deliveries(): DeliveryLogEntry[];
	configure(opts: ConfigurableOptions): void;
	addFault(f: FaultSpec): void;
	clearFaults(): void;
	settlePending(): Promise<void>;
	reset(): void;
	close(): Promise<void>;
}
