import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { valuesOf, WEBHOOK_EVENTS } from '../common/optionLists';
import { variantOf } from '../common/transport/request';
import type { ApiVariant } from '../common/transport/routes';
import { accountNumberSchema } from '../common/validation';
import type { EventKind } from '../common/events';

/**
 * Limits of one poll. Tunable in one place (tests shorten the waits); each is the bound the README states.
 * - pageSize: records asked for per list page (less once the bank shows it serves fewer: reader.ts).
 * - overlapMs: how far behind the newest record handled (or n8n's clock, when that is earlier) the trigger looks
 *   for records the bank writes late (clock skew between its servers, a slow commit, a bank clock put back): the
 *   records handled in that window are remembered with their order, and one page per poll checks that none was
 *   written between them (follow.ts). 15 minutes: the measured cases were a bank server 6 minutes ahead and a
 *   clock corrected back by 10 minutes.
 * - maxSeen: records remembered per list (their references, and their order as the bank lists them). Beyond it
 *   the oldest are forgotten and the floor rises above them.
 * - keepTop: the newest records remembered whatever their age, so a quiet list still finds its place.
 * - maxPending: transfers (or collections) awaiting a final status; beyond it the oldest is given up, with a
 *   warning naming its reference.
 * - recheckDelaysMs: waits between status checks of one pending record, growing as the contract advises.
 * - recheckPerPoll: status checks at most per poll, so a backlog of pending transfers cannot flood the bank.
 * - requestBudget: list and status requests one poll may make at most (the Requests per Poll option), so a
 *   backlog or a crowd of transfers never floods the bank; what is left is delivered by the next polls.
 * - lookBackMs: how long after its creation a transfer's reversal (successful, then failed) still yields
 *   Transfer Failed, and how far back a new trigger looks for transfers still pending.
 * The pause after a refused sign-in belongs to nodes/common/transport/session.ts, shared by every node.
 */
export const POLL_LIMITS = {
	pageSize: 100,
	overlapMs: 15 * 60_000,
	maxSeen: 5_000,
	keepTop: 20,
	maxPending: 1_000,
	recheckDelaysMs: [5_000, 15_000, 60_000, 300_000, 900_000],
	recheckPerPoll: 25,
	requestBudget: 20,
	lookBackMs: 24 * 3_600_000,
};

/**
 * Records a list's start reads from its top (fewer only where the list holds fewer): the floor lies just above the
 * deepest (start.ts, `startFloor`). Records stamped in the bank's future stand on top of a list ordered by
 * created_at, and one written late may top a list ordered as written: two read could both be such, and set the
 * floor ahead of what the bank writes next.
 */
export const START_RECORDS = 3;

/**
 * Requests a list's start needs when no entry is malformed, at a bank serving one record a page: a page for each of
 * the top's records, and the first page of the transfers pending.
 */
export const requestsToStart = (list: 'collections' | 'transfers') => START_RECORDS + (list === 'transfers' ? 1 : 0);

/**
 * The fewest requests a poll needs so that every selected event gets through, whatever the bank's page cap. Lists
 * take turns at a whole poll's work (poll.ts): each list reads its place page, with the look-up a record it hands on
 * takes where it takes one (a transfer's status with the API client, an account's name with the dashboard
 * credential: a page is read only with it left, drive.ts); the list in turn reads one page more (the check behind its
 * place, a page across a boundary the bank's cap fixes, or where a short page ends the list); with transfers, one
 * more for a pending transfer's status re-check. Counted for every list, not only the one in turn: a list whose place
 * page needs two requests, given one, reads nothing.
 */
export function leastRequestsFor(events: readonly EventKind[], variant: ApiVariant = 'api'): number {
	const transfers = events.includes('TRANSFER_SUCCESS') || events.includes('TRANSFER_FAILED');
	const lists = (events.includes('COLLECTION_SUCCESS') ? 1 : 0) + (transfers ? 1 : 0) + (events.includes('TRANSFER_FAILED') ? 1 : 0);
	// A look-up per list whose records take one: every list with the dashboard credential, the transfers' lists with the API client.
	const lookUps = variant === 'web' ? lists : lists - (events.includes('COLLECTION_SUCCESS') ? 1 : 0);
	const following = lists + lookUps + 1 + (transfers ? 1 : 0);
	// And what every list's start needs, so that all start in the first poll (the failed transfers start from the
	// transfers' place, with no request of their own).
	const starting = (events.includes('COLLECTION_SUCCESS') ? requestsToStart('collections') : 0) + (transfers ? requestsToStart('transfers') : 0);
	return Math.max(following, starting);
}

const EVENT_KINDS = valuesOf(WEBHOOK_EVENTS);

export type OutputShape = 'event' | 'data';

export interface PollSettings {
	events: EventKind[];
	accountNumber?: string;
	output: OutputShape;
	/** Epoch ms to backfill from when the trigger has no saved place yet, or undefined to start from now. */
	startFromMs?: number;
	/** List and status requests one poll may make. */
	requestBudget: number;
}

interface Options {
	output?: OutputShape;
	startFrom?: string;
	requestBudget?: number;
}

/** Reads and checks the node's parameters before any request is made. */
export function readSettings(context: IPollFunctions): PollSettings {
	const node = context.getNode();
	const events = (context.getNodeParameter('events', []) as string[]).filter((e): e is EventKind =>
		(EVENT_KINDS as readonly string[]).includes(e),
	);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Select at least one event in the Events parameter');
	}
	const rawAccount = String(context.getNodeParameter('accountNumber', '') ?? '').trim();
	let accountNumber: string | undefined;
	if (rawAccount !== '') {
		const parsed = accountNumberSchema.safeParse(rawAccount);
		if (!parsed.success) {
			throw new NodeOperationError(node, `Account Number ${parsed.error.issues[0].message}`, {
				description: 'Enter the 10-digit account number to watch, or leave it empty to watch every account.',
			});
		}
		accountNumber = parsed.data;
	}
	const options = context.getNodeParameter('options', {}) as Options;
	const startFrom = String(options.startFrom ?? '').trim();
	let startFromMs: number | undefined;
	if (startFrom !== '') {
		startFromMs = Date.parse(startFrom);
		if (!Number.isFinite(startFromMs)) {
			throw new NodeOperationError(node, `Start From "${startFrom}" is not a date and time`, {
				description: 'Pick a date and time in the Start From option, or remove the option to start from now.',
			});
		}
	}
	const budget = options.requestBudget ?? POLL_LIMITS.requestBudget;
	const least = leastRequestsFor(events, variantOf(context));
	if (!Number.isInteger(budget) || budget < least) {
		throw new NodeOperationError(node, `Requests per Poll must be a whole number of at least ${least} for the events selected, not "${String(budget)}"`, {
			description: `At every poll each list the events need (collections, transfers, failed transfers for Transfer Failed) reads a page and, for a record it passes on, a transfer's status (with the dashboard credential, an account's name); the list whose turn it is also reads one more (where the bank's pages end, or the check for records written late) and, with transfers, a pending transfer's status again; and every list's start, in the first poll, reads three records of its top (a page each from a bank serving one a page). With fewer requests some events would never arrive. Enter ${least} or more (the default is ${POLL_LIMITS.requestBudget}), or remove the option.`,
		});
	}
	return { events, accountNumber, output: options.output === 'data' ? 'data' : 'event', startFromMs, requestBudget: budget };
}
