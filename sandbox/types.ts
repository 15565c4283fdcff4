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
	 * deliveries in a row that reach nobody (404/410 or refused) before the URL is disabled, default 3, 0 = never;
	 * timeoutMs: how long one attempt waits for an answer, default 10 s.
	 */
	webhookRetry?: { attempts: number; baseDelayMs: number; disableAfter?: number; timeoutMs?: number };
	/** Default: silent. */
	log?: (line: string) => void;
	/**
	 * What transaction and settlement list items carry (sandbox/README.md, "List shapes"). 'documented' (default):
	 * exactly the contract's fields, no `id`, so only page numbers or cursor_created_at alone can page them;
	 * 'cursor': also `id` (and settlements `created_at`), and cursor_id is honoured.
	 */
	listShape?: ListShape;
	/** The most records one page holds whatever page_size or limit asks; null (default): no cap. */
	pageCap?: number | null;
	/**
	 * Where a numbered page starts under a cap: 'served' (default): page P after (P − 1) × the capped size;
	 * 'asked': after (P − 1) × page_size as asked, so the records between a capped page and the next are never
	 * served (a bank that caps after paging; a reader that keeps asking more than it is served skips them).
	 */
	pageOffsets?: PageOffsets;
	/** List requests (fetch_*) served per clock minute; beyond it HTTP 429 until the next minute. null (default): no quota. */
	listQuotaPerMinute?: number | null;
	/** 'created' (default): newest created_at first; 'recorded': newest written first (a late record sits on top). */
	listOrder?: ListOrder;
}

export type ListShape = 'documented' | 'cursor';
export type ListOrder = 'created' | 'recorded';
export type PageOffsets = 'served' | 'asked';
/** How a transaction marked with markMalformed is served in every list. */
export type MalformedKind = 'null' | 'missingReference' | 'missingCreatedAt' | 'invalidCreatedAt' | 'notAnObject';
export const MALFORMED_KINDS: readonly MalformedKind[] = ['null', 'missingReference', 'missingCreatedAt', 'invalidCreatedAt', 'notAnObject'];

export type ConfigurableOptions = Partial<
	Pick<
		SandboxOptions,
		| 'tokenTtlSeconds'
		| 'dashboardTokenTtlSeconds'
		| 'interSettleDelayMs'
		| 'deliverWebhooks'
		| 'listShape'
		| 'pageCap'
		| 'pageOffsets'
		| 'listQuotaPerMinute'
		| 'listOrder'
	>
>;

/** The configuration in force (startSandbox's options, then configure() and POST /__sandbox/config). */
export interface SandboxConfig {
	tokenTtlSeconds: number;
	dashboardTokenTtlSeconds: number;
	interSettleDelayMs: number;
	deliverWebhooks: boolean;
	listShape: ListShape;
	pageCap: number | null;
	pageOffsets: PageOffsets;
	listQuotaPerMinute: number | null;
	listOrder: ListOrder;
}

/** A transaction or settlement list page the bank has just served (see SandboxHandle.onListServed). */
export interface ListServed {
	/** The contract path, e.g. /api/v1/transaction/api/fetch_transactions. */
	path: string;
	/** Entries on the page. */
	items: number;
}

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
	config(): SandboxConfig;
	addFault(f: FaultSpec): void;
	clearFaults(): void;
	settlePending(): Promise<void>;
	/** Serve the stored transaction `reference` (and its settlement) in every list as `as`, in its own slot. */
	markMalformed(reference: string, as: MalformedKind): void;
	clearMalformed(): void;
	/**
	 * Calls `callback` after each transaction or settlement list page is served (it may add records, which the
	 * next page then sees). Returns a function that removes it; reset() removes them all.
	 */
	onListServed(callback: (served: ListServed) => void): () => void;
	/** Back to the seeded state: logs, faults, malformed marks and list hooks cleared; configuration kept. */
	reset(): void;
	close(): Promise<void>;
}
