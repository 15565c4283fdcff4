import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { accountNumberSchema } from '../Baas/validation';
import type { EventKind } from '../BaasTrigger/options';

/**
 * Limits of one poll. Tunable in one place (tests shorten the waits); each is the bound the README states.
 * - overlapMs: how far behind the newest record seen a poll reads again, so a record the bank writes late
 *   (clock skew between its servers, a slow commit) is still found; the references seen in that window stop
 *   it from being emitted twice.
 * - maxSeen: references remembered per stream. Beyond it the oldest instants are forgotten and the read-back
 *   floor moves up to the oldest kept instant (all references of one instant are kept together).
 * - maxPending: transfers (or collections) awaiting a final status; beyond it the oldest is given up, with a
 *   warning naming its reference.
 * - recheckDelaysMs: waits between status checks of one pending record, growing as the contract advises.
 * - recheckPerPoll: status checks at most per poll, so a backlog of pending transfers cannot flood the bank.
 * - signInPauseMs: after the bank refuses the sign-in, scheduled polls make no request for this long, so
 *   polling can never reach the bank's lockout (5 failures in 15 minutes).
 */
export const POLL_LIMITS = {
	pageSize: 100,
	overlapMs: 5 * 60_000,
	maxSeen: 5_000,
	maxPending: 1_000,
	recheckDelaysMs: [5_000, 15_000, 60_000, 300_000, 900_000],
	recheckPerPoll: 25,
	signInPauseMs: 15 * 60_000,
};

export type OutputShape = 'event' | 'data';

export interface PollSettings {
	events: EventKind[];
	accountNumber?: string;
	output: OutputShape;
	/** Epoch ms to backfill from on first activation, or undefined to start from now. */
	startFromMs?: number;
	/** The Start From text as entered, to notice when the user changes it. */
	startFrom: string;
}

interface Options {
	output?: OutputShape;
	startFrom?: string;
}

/** Reads and checks the node's parameters before any request is made. */
export function readSettings(context: IPollFunctions): PollSettings {
	const node = context.getNode();
	const events = (context.getNodeParameter('events', []) as string[]).filter(
		(e): e is EventKind => e === 'COLLECTION_SUCCESS' || e === 'TRANSFER_SUCCESS' || e === 'TRANSFER_FAILED',
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
	return { events, accountNumber, output: options.output === 'data' ? 'data' : 'event', startFromMs, startFrom };
}
