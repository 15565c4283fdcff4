/**
 * The one sign-in guard of an n8n process (a main or a worker). The bank locks an identity (client ID or
 * e-mail, whichever Base URL it is reached at) after repeated refused sign-ins: the contract says only "repeated failed authentication attempts
 * trigger a temporary account lockout"; the sandbox, as the design rules, locks after 5 in 15 minutes for 15
 * minutes. Every sign-in of this package goes through here: the action nodes, both triggers, the credential's
 * Test and n8n's own preAuthentication.
 *
 * - A refused credential (its identity AND secret) is not tried again for SIGN_IN_LIMITS.pauseMs: one wrong
 *   secret costs one refusal at the bank, however many executions, polls and Tests use it.
 * - An identity gets at most SIGN_IN_LIMITS.refusalsPerIdentity refusals, whatever the secret (a secret edited
 *   to one wrong value after another): then no sign-in for it until pauseMs after its last refusal, by when a
 *   bank counting failures in a 15-minute window (sliding, or reset after 15 quiet minutes) has forgotten them.
 * - An identity the bank says is locked (HTTP 423) gets no attempt until the lock ends.
 * - An identity signs in once at a time, so concurrent attempts with different secrets cannot overshoot.
 * - It forgets: a record whose refusals and lock aged out is dropped, and it holds at most MAX_IDENTITIES.
 *
 * A credential with the same identity and another secret signs in while the identity is under its limit, and a
 * valid token held for it is used whatever the guard says: using a token is no sign-in.
 */
import { SignInError } from './tokenExchange';

export const SIGN_IN_LIMITS = {
	/** How long a refused credential waits, and the window its identity's refusals are counted in (tests shorten it). */
	pauseMs: 15 * 60_000,
	/** Refusals per identity per window from this process: below the 5 that lock it, leaving room for one elsewhere. */
	refusalsPerIdentity: 3,
};

/** One sign-in to be made: who it is for, as the bank and the user know it. */
export interface SignInCandidate {
	/**
	 * API variant and client ID or e-mail: what the bank locks. Not the Base URL: one bank reached through two
	 * spellings of its address (its host and a gateway, `:443` spelled out) locks the one client ID.
	 */
	identityKey: string;
	/** The identity and a hash of the secret (not the Base URL either): what the bank refused. */
	credentialKey: string;
	/** "client ID abc" or "e-mail a@b.c": the identity as errors name it (never the secret). */
	who: string;
	/** n8n's name of the credential, or '' when unknown (n8n's preAuthentication does not say). */
	credentialName: string;
	/** What to correct, e.g. "Client Secret (or Client ID)". */
	secretFields: string;
}

interface Refusal {
	credentialKey: string;
	credentialName: string;
	atMs: number;
	/** The bank's refusal, e.g. "Invalid client credentials [41]" (scrubbed). */
	reason: string;
}

interface IdentityRecord {
	/** Refusals since the identity last went a whole window without one, oldest first. */
	refusals: Refusal[];
	lockedUntilMs?: number;
	/** Ends when the sign-in under way for this identity ends. */
	turn: Promise<void>;
	busy: number;
}

/** By identity key, least recently refused first (a refusal moves its record to the end). */
const identities = new Map<string, IdentityRecord>();
// More identities than one n8n process signs in with in a window: beyond it, the least recently refused goes.
export const MAX_IDENTITIES = 500;
// A bank's refusal or a credential's name is kept at most this long: a 40 KB answer must not be kept whole.
const MAX_KEPT_TEXT = 300;
// How often every record is looked at for dropping: once a minute, or once a window when shorter (tests).
const SWEEP_EVERY_MS = 60_000;
let lastSweepMs = 0;

const MINUTE_MS = 60_000;
/** A moment as users read it: HH:MM UTC. */
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
/** The first minute at which a try is allowed (rounded up, so "until 14:18" is never too early). */
const fromMinute = (ms: number) => clock(Math.ceil(ms / MINUTE_MS) * MINUTE_MS);

const named = (name: string) => (name ? `credential "${name}"` : 'a credential without a name');

/** Forgets what has aged out: refusals once a whole window passed since the last, a lock once it ended. */
function age(record: IdentityRecord, nowMs: number): void {
	const last = record.refusals[record.refusals.length - 1];
	if (last && nowMs - last.atMs >= SIGN_IN_LIMITS.pauseMs) record.refusals = [];
	if (record.lockedUntilMs !== undefined && nowMs >= record.lockedUntilMs) record.lockedUntilMs = undefined;
}

/** A record that says nothing any more (all aged out) and that no sign-in waits on: dropping it changes nothing. */
function idle(record: IdentityRecord, nowMs: number): boolean {
	age(record, nowMs);
	return record.busy === 0 && record.refusals.length === 0 && record.lockedUntilMs === undefined;
}

/** Drops idle records: at most once per SWEEP_EVERY_MS (or window), so a guard call costs O(1) amortised. */
function sweep(nowMs: number): void {
	const every = Math.min(SWEEP_EVERY_MS, SIGN_IN_LIMITS.pauseMs);
	// A clock set back (tests) sweeps at once rather than waiting for the old time.
	if (nowMs >= lastSweepMs && nowMs - lastSweepMs < every && identities.size < MAX_IDENTITIES) return;
	lastSweepMs = nowMs;
	for (const [key, record] of identities) if (idle(record, nowMs)) identities.delete(key);
}

function recordOf(identityKey: string, nowMs: number): IdentityRecord {
	sweep(nowMs);
	let record = identities.get(identityKey);
	if (!record) {
		record = { refusals: [], turn: Promise.resolve(), busy: 0 };
		// Full of records still counting: the least recently refused that no sign-in waits on goes (its identity
		// may then get more refusals than the limit; 500 identities refused within one window is no real load).
		// When every one is busy, this record serves this call without being kept.
		if (identities.size >= MAX_IDENTITIES) {
			const evicted = [...identities.keys()].find((key) => identities.get(key)!.busy === 0);
			if (evicted === undefined) return record;
			identities.delete(evicted);
		}
		identities.set(identityKey, record);
	}
	return record;
}

/** At most MAX_KEPT_TEXT characters, copied: a slice or a concatenation would keep the whole answer alive. */
const kept = (text: string) => Array.from(text.length > MAX_KEPT_TEXT ? `${text.slice(0, MAX_KEPT_TEXT - 1)}…` : text).join('');

const identityFullUntil = (record: IdentityRecord) => record.refusals[record.refusals.length - 1].atMs + SIGN_IN_LIMITS.pauseMs;
const identityFull = (record: IdentityRecord) => record.refusals.length >= SIGN_IN_LIMITS.refusalsPerIdentity;

/** The error of a credential the bank refused, the same words when it happens and whenever it is recalled. */
function refusedError(candidate: SignInCandidate, refusal: Refusal, record: IdentityRecord): SignInError {
	const name = candidate.credentialName || refusal.credentialName;
	// Its own pause, or longer when the identity has used its refusals or is locked.
	const untilMs = Math.max(refusal.atMs + SIGN_IN_LIMITS.pauseMs, record.lockedUntilMs ?? 0, identityFull(record) ? identityFullUntil(record) : 0);
	const locked = (record.lockedUntilMs ?? 0) > refusal.atMs;
	const message =
		`The bank refused to sign in: ${refusal.reason} (${named(name)}, ${candidate.who}, at ${clock(refusal.atMs)} UTC). ` +
		(locked
			? `The bank has locked ${candidate.who}: no sign-in is tried until ${fromMinute(untilMs)} UTC.`
			: `It is not tried again until ${fromMinute(untilMs)} UTC, so that the bank does not lock ${candidate.who}.`);
	const advice = identityFull(record)
		? `Correct the ${candidate.secretFields} in ${named(name)} and save. The bank refused ${record.refusals.length} sign-ins of ${candidate.who} since ${clock(record.refusals[0].atMs)} UTC, so no credential signs in as ${candidate.who} until ${fromMinute(identityFullUntil(record))} UTC; the first run after that signs in with the credential as saved then.`
		: `Correct the ${candidate.secretFields} in ${named(name)} and save: the next run signs in with the corrected values.`;
	return new SignInError(message, true, '41', undefined, { advice, notTriedUntilMs: untilMs });
}

/** The error of a credential not tried because its identity has used up its refusals, or is locked. */
function identityError(candidate: SignInCandidate, record: IdentityRecord, nowMs: number): SignInError {
	const locked = record.lockedUntilMs !== undefined && record.lockedUntilMs > nowMs;
	const untilMs = Math.max(identityFull(record) ? identityFullUntil(record) : 0, locked ? record.lockedUntilMs! : 0);
	const refusedNames = [...new Set(record.refusals.map((r) => r.credentialName))].map(named).join(', ');
	const last = record.refusals[record.refusals.length - 1];
	const why = locked
		? `the bank locked it after repeated refused sign-ins (last: ${last?.reason ?? 'locked'}, ${last ? named(last.credentialName) : ''} at ${clock(last?.atMs ?? nowMs)} UTC)`
		: `the bank refused ${record.refusals.length} sign-ins of it since ${clock(record.refusals[0].atMs)} UTC (${refusedNames}), and it locks ${candidate.who} after repeated refusals`;
	const message = `No sign-in for ${candidate.who} until ${fromMinute(untilMs)} UTC: ${why}. ${named(candidate.credentialName)} was not tried.`;
	const advice = `Correct or delete the credentials the bank refused (${refusedNames || 'see above'}); from ${fromMinute(untilMs)} UTC the next run signs in with ${named(candidate.credentialName)} as saved then.`;
	return new SignInError(message, true, '41', undefined, { advice, notTriedUntilMs: untilMs });
}

/** Why `candidate` may not sign in now, or undefined when it may. */
function blockOf(candidate: SignInCandidate, record: IdentityRecord, nowMs: number): SignInError | undefined {
	age(record, nowMs);
	const own = record.refusals.find((r) => r.credentialKey === candidate.credentialKey && nowMs - r.atMs < SIGN_IN_LIMITS.pauseMs);
	if (own) return refusedError(candidate, own, record);
	if ((record.lockedUntilMs ?? 0) > nowMs || identityFull(record)) return identityError(candidate, record, nowMs);
	return undefined;
}

/** Why `candidate` may not sign in now (the error it would get), or undefined when it may. */
export function signInBlock(candidate: SignInCandidate, nowMs = Date.now()): SignInError | undefined {
	sweep(nowMs);
	const record = identities.get(candidate.identityKey);
	return record === undefined ? undefined : blockOf(candidate, record, nowMs);
}

/**
 * Runs `signIn` for `candidate` unless the guard says no, and returns its outcome: the token, or the SignInError
 * (`signIn` returns its failure rather than throwing it). When the guard says no, the bank is not asked and the
 * error says why and until when. A refusal by the bank is remembered and told in the same words as whenever it
 * is recalled later; other failures (bank unreachable or busy) are no refusals and are returned unchanged.
 */
export async function guardedSignIn<T>(candidate: SignInCandidate, signIn: () => Promise<T | SignInError>): Promise<T | SignInError> {
	const record = recordOf(candidate.identityKey, Date.now());
	const previous = record.turn;
	let done!: () => void;
	record.turn = new Promise<void>((resolve) => (done = resolve));
	record.busy++;
	try {
		await previous;
		const block = blockOf(candidate, record, Date.now());
		if (block) return block;
		const outcome = await signIn();
		if (!(outcome instanceof SignInError) || !outcome.refused) return outcome;
		const atMs = Date.now();
		age(record, atMs);
		const refusal = { credentialKey: candidate.credentialKey, credentialName: kept(candidate.credentialName), atMs, reason: kept(outcome.bankReason ?? outcome.message) };
		record.refusals.push(refusal);
		if (identities.get(candidate.identityKey) === record) {
			identities.delete(candidate.identityKey);
			identities.set(candidate.identityKey, record);
		}
		if (outcome.httpStatus === 423) record.lockedUntilMs = atMs + Math.max(SIGN_IN_LIMITS.pauseMs, outcome.retryAfterMs ?? 0);
		return refusedError(candidate, refusal, record);
	} finally {
		record.busy--;
		done();
		if (identities.get(candidate.identityKey) === record && idle(record, Date.now())) identities.delete(candidate.identityKey);
	}
}

/** How many identities the guard holds records of (tests and bench/signInGuard.ts read it). */
export const signInGuardSize = (): number => identities.size;

/** Forgets every refusal and lock (tests start cold with it). */
export function clearSignInGuard(): void {
	identities.clear();
	lastSweepMs = 0;
}
