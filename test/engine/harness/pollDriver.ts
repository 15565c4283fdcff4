/**
 * Runs a Poll Trigger workflow poll after poll against the sandbox bank and measures what a user (or the bank)
 * sees of each poll: the events emitted (judged by the oracle), the requests the bank received, the size of the
 * static data n8n saves, the wall time. Nothing here reads the trigger's state.
 */
import type { ListShape, SandboxHandle } from '../../../sandbox';
import { reportFigures } from '../reliability/scale';
import { ALL_EVENTS, EventOracle, figuresOf, type Verdict } from './pollOracle';
import type { PollResult } from './pollWorkflow';
import { fakeClock, PollingWorkflow } from './pollWorkflow';

export interface PollFigures {
	/** 1 for the first poll after activation. */
	index: number;
	emitted: number;
	/** Requests to the transaction lists (fetch_transactions, either variant). */
	listRequests: number;
	/** Every contract request but sign-ins. */
	requests: number;
	/** JSON length of the static data saved after the poll. */
	staticDataSize: number;
	/** The poll assigned the node's static data (n8n saves it with the execution it starts). */
	staticDataWritten: boolean;
	wallMs: number;
	error?: PollResult['error'];
}

const isList = (path: string) => path.endsWith('/fetch_transactions');
const isSignIn = (path: string) => path.endsWith('/generate_token') || path.endsWith('/auth/web/login');

export class PollDriver {
	oracle!: EventOracle;
	readonly polls: PollFigures[] = [];

	constructor(
		readonly bank: SandboxHandle,
		readonly wf: PollingWorkflow,
		private readonly events?: string[],
	) {}

	/** The activation poll: the trigger takes its place; what the bank holds before it is history. */
	async activate(): Promise<PollResult> {
		this.oracle = new EventOracle(this.bank, this.events);
		return await this.wf.poll();
	}

	/** One scheduled poll, measured. */
	async poll(): Promise<PollFigures> {
		this.oracle.beforePoll();
		const logged = this.bank.requests().length;
		const started = performance.now();
		const result = await this.wf.poll();
		const wallMs = performance.now() - started;
		const log = this.bank.requests().slice(logged);
		this.oracle.record(result.json);
		const figures: PollFigures = {
			index: this.polls.length + 1,
			emitted: result.json.length,
			listRequests: log.filter((entry) => isList(entry.path)).length,
			requests: log.filter((entry) => !isSignIn(entry.path)).length,
			staticDataSize: JSON.stringify(this.wf.saved).length,
			staticDataWritten: result.staticDataWritten === true,
			wallMs,
			error: result.error,
		};
		this.polls.push(figures);
		return figures;
	}

	/**
	 * Polls every `everyMs` of the fake clock (0: the clock stands) until `quiet` polls in a row emit nothing and
	 * `settled()` holds, or `most` polls; `between(i)` runs before poll i (0-based).
	 */
	async pollUntilQuiet(options: { everyMs: number; quiet: number; most: number; between?: (i: number) => void; settled?: () => boolean }): Promise<number> {
		let quietRun = 0;
		let i = 0;
		for (; i < options.most && quietRun < options.quiet; i++) {
			if (options.everyMs > 0) fakeClock.advance(options.everyMs);
			options.between?.(i);
			const figures = await this.poll();
			quietRun = figures.emitted === 0 && !figures.error && (options.settled?.() ?? true) ? quietRun + 1 : 0;
		}
		return i;
	}

	/**
	 * Polls once a minute of the fake clock (`between(i)` before poll i, 0-based) until every event the bank holds
	 * has been emitted — after at least `atLeast` polls — or `most` polls.
	 */
	async pollThrough(most: number, between: (i: number) => void = () => undefined, atLeast = 1): Promise<void> {
		for (let i = 0; i < most; i++) {
			fakeClock.advance(60_000);
			between(i);
			await this.poll();
			if (i + 1 >= atLeast && this.oracle.outstanding().length === 0) return;
		}
	}

	/** The oracle's verdict, printed with the polls' figures (reportFigures) under `name`. */
	report(name: string, extra: Record<string, number | string> = {}): Verdict {
		const verdict = this.oracle.check();
		reportFigures(name, {
			...figuresOf(verdict),
			polls: this.polls.length,
			list_requests: this.total('listRequests'),
			most_requests_in_a_poll: Math.max(0, ...this.polls.map((p) => p.requests)),
			failed_polls: this.polls.filter((p) => p.error).length,
			...extra,
		});
		return verdict;
	}

	/** Sum over the polls measured so far. */
	total(field: 'emitted' | 'listRequests' | 'requests'): number {
		return this.polls.reduce((sum, p) => sum + p[field], 0);
	}
}

let contractSeq = 0;

/**
 * A Poll Trigger (API client credential, all three events unless `parameters` say otherwise) on a bank in the
 * list shape `shape`, driven by a PollDriver.
 */
export function contractTrigger(
	fx: { bank: SandboxHandle; credentials: ConstructorParameters<typeof PollingWorkflow>[0] },
	shape: ListShape,
	parameters: Record<string, unknown> = {},
	options: ConstructorParameters<typeof PollingWorkflow>[4] = {},
): PollDriver {
	fx.bank.configure({ listShape: shape });
	const wf = new PollingWorkflow(fx.credentials, { authentication: 'apiClient', events: ALL_EVENTS, ...parameters }, undefined, `wf-contract-${++contractSeq}`, options);
	return new PollDriver(fx.bank, wf, (parameters.events as string[] | undefined) ?? ALL_EVENTS);
}
