import type { IExecuteFunctions } from 'n8n-workflow';

import { refusedError } from '../writeOutcome';
import type { TransferBody } from './exactlyOnce';

/**
 * Payments whose outcome this n8n process could not learn (the send went unanswered and the status could not be
 * read). An AI agent that reads "outcome unknown" may ask again under a reference of its own making, and the bank
 * would pay twice; so while one is unknown, a tool call for the same payment (same source, beneficiary, bank and
 * amount) under another reference is refused and told to check, or send again, the first reference.
 */
interface Unknown {
	reference: string;
	atMs: number;
}

const unknowns = new Map<string, Unknown>();
// A day: by then a person has looked; the bank's ledger (Daily Limit) keeps counting it anyway.
const KEEP_MS = 24 * 60 * 60_000;
const MAX_UNKNOWNS = 1000;

const paymentKey = (body: TransferBody) =>
	JSON.stringify([body.source_account_number, body.beneficiary_account_number, body.bank_code, body.amount]);

export function rememberUnknownOutcome(body: TransferBody, nowMs = Date.now()): void {
	if (unknowns.size >= MAX_UNKNOWNS) unknowns.delete(unknowns.keys().next().value as string);
	unknowns.set(paymentKey(body), { reference: body.reference_number, atMs: nowMs });
}

/** A payment's outcome became known (paid, or refused by the bank): nothing to warn about any more. */
export function forgetUnknownOutcome(body: TransferBody): void {
	const key = paymentKey(body);
	if (unknowns.get(key)?.reference === body.reference_number) unknowns.delete(key);
}

export function refuseRepeatOfUnknown(context: IExecuteFunctions, itemIndex: number, body: TransferBody, nowMs = Date.now()): void {
	const key = paymentKey(body);
	const earlier = unknowns.get(key);
	if (earlier === undefined) return;
	if (nowMs - earlier.atMs >= KEEP_MS) {
		unknowns.delete(key);
		return;
	}
	if (earlier.reference === body.reference_number) return;
	throw refusedError(
		context.getNode(),
		itemIndex,
		`Transfer ${body.reference_number} was not sent: the same payment (NGN ${body.amount} from ${body.source_account_number} to ${body.beneficiary_account_number}, bank ${body.bank_code}) was sent earlier under reference ${earlier.reference} and its outcome is unknown, so a new reference could pay it twice. Nothing was sent to the bank.`,
		`Check reference ${earlier.reference} with Transfer → Get Status first. If the bank has no record of it, send the payment again with the same reference ${earlier.reference}, never a new one: the bank pays a reference once.`,
	);
}

/** Forgets every unknown outcome (tests start cold with it, as a new n8n process does). */
export function forgetUnknownOutcomes(): void {
	unknowns.clear();
}
