import { createHmac, randomUUID } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { recentDeliveries } from '../../../nodes/BaasTrigger/recentDeliveries';
import { recentSecrets, REREAD_INTERVAL_MS } from '../../../nodes/BaasTrigger/secretCache';
import { useBankFixture } from '../harness/bankFixture';
import { TriggerWorkflow } from '../harness/triggerWorkflow';
import { reportFigures, sized } from './scale';

/**
 * Forged and replayed webhooks against the BaaS Trigger served as n8n serves it: forged deliveries of every kind
 * are mixed with valid events and their duplicates. Forged accepted, duplicates emitted and valid events lost
 * must all be 0.
 */
const fx = useBankFixture();
const FORGED = sized(110, 10_000);
const VALID = sized(50, 1_000);
const DUPLICATE_SHARE = 0.1;

beforeAll(() => {
	const logger = Container.get(Logger);
	for (const level of ['error', 'warn', 'info', 'debug'] as const) jest.spyOn(logger, level).mockImplementation(() => {});
});
afterAll(() => jest.restoreAllMocks());

const hmac = (body: string | Buffer, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

function event(reference: string): string {
	return JSON.stringify({
		event: 'COLLECTION_SUCCESS',
		data: { reference_number: reference, account_number: '0823100001', amount: '1500.00', status: 'success' },
		created_at: new Date().toISOString(),
	});
}

interface Delivery {
	body: string | Buffer;
	headers: Record<string, string>;
}

/** One forged delivery of kind `i % kinds`, built from a genuine event (`reference`) the forger has seen or made up. */
function forged(i: number, secret: string, replayable: Delivery): { kind: string; delivery: Delivery } {
	const body = event(`FORGED-${i}-${randomUUID().slice(0, 8)}`);
	const good = `sha256=${hmac(body, secret)}`;
	const json = { 'content-type': 'application/json' };
	const kinds: Array<[string, () => Delivery]> = [
		['wrong-secret', () => ({ body, headers: { ...json, 'x-service-signature': `sha256=${hmac(body, `${secret}x`)}` } })],
		['mutated-bytes', () => ({ body: body.replace('1500.00', '9500.00'), headers: { ...json, 'x-service-signature': good } })],
		['truncated-signature', () => ({ body, headers: { ...json, 'x-service-signature': good.slice(0, 7 + 63 - (i % 60)) } })],
		['extended-signature', () => ({ body, headers: { ...json, 'x-service-signature': `${good}${'0a'.slice(i % 2)}` } })],
		['re-cased-body', () => ({ body: body.replace('FORGED', 'forged'), headers: { ...json, 'x-service-signature': good } })],
		['missing-signature', () => ({ body, headers: json })],
		['wrong-prefix', () => ({ body, headers: { ...json, 'x-service-signature': [`sha1=${good.slice(7)}`, good.slice(7), `sha512=${good.slice(7)}`][i % 3] } })],
		['empty-body', () => ({ body: '', headers: { ...json, 'x-service-signature': good } })],
		['oversized', () => ({ body: `${body.slice(0, -1)},"pad":"${'x'.repeat(1_000_000)}"}`, headers: { ...json, 'x-service-signature': good } })],
		['invalid-json', () => {
			const text = body.slice(0, -3);
			return { body: text, headers: { 'content-type': 'text/plain', 'x-service-signature': `sha256=${hmac(text, i % 2 ? secret : 'guess')}` } };
		}],
		['new-delivery-id', () => ({ body: replayable.body, headers: { ...replayable.headers, 'x-service-delivery-id': randomUUID() } })],
	];
	const [kind, build] = kinds[i % kinds.length];
	return { kind, delivery: build() };
}

test(`${FORGED} forged deliveries among ${VALID} valid events with ${DUPLICATE_SHARE * 100}% duplicates: none forged accepted, no duplicate emitted, no valid event lost`, async () => {
	const secret = fx.bank.seed.webhookSecret;
	const wf = await TriggerWorkflow.start(fx.credentials, { parameters: { events: ['COLLECTION_SUCCESS'] } });
	try {
		await wf.activate();
		const post = async (delivery: Delivery) => {
			const answer = await fetch(wf.productionUrl, { method: 'POST', body: delivery.body, headers: delivery.headers });
			await answer.arrayBuffer();
			return answer.status;
		};

		const valid: Delivery[] = Array.from({ length: VALID }, (_, i) => {
			const body = event(`VALID-${i}-${randomUUID().slice(0, 8)}`);
			return { body, headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${hmac(body, secret)}`, 'x-service-delivery-id': randomUUID() } };
		});
		const duplicates = Math.round(VALID * DUPLICATE_SHARE);
		const forgedPerValid = FORGED / VALID;
		const statusByKind = new Map<string, Set<number>>();
		let forgedSent = 0;
		let forgedExecuted = 0;
		for (let v = 0; v < VALID; v++) {
			expect(await post(valid[v])).toBe(200);
			if (v < duplicates) {
				// A duplicate of an earlier valid event, resent with its own delivery id (as the bank retries).
				const earlier = valid[Math.floor(v / 2)];
				expect(await post({ body: earlier.body, headers: { ...earlier.headers, 'x-service-delivery-id': randomUUID() } })).toBe(200);
			}
			while (forgedSent < Math.round((v + 1) * forgedPerValid)) {
				const { kind, delivery } = forged(forgedSent++, secret, valid[v]);
				const before = wf.received.filter((r) => r.executed).length;
				const status = await post(delivery);
				if (wf.received.filter((r) => r.executed).length > before) forgedExecuted++;
				statusByKind.set(kind, (statusByKind.get(kind) ?? new Set()).add(status));
			}
		}
		await wf.idle();

		const emitted = wf.items.map((item) => String((item.data as { reference_number: string }).reference_number));
		const validReferences = new Set(valid.map((d) => (JSON.parse(String(d.body)) as { data: { reference_number: string } }).data.reference_number));
		const forgedAccepted = emitted.filter((reference) => !validReferences.has(reference)).length + forgedExecuted;
		const duplicatesEmitted = emitted.length - new Set(emitted).size;
		const validLost = [...validReferences].filter((reference) => !emitted.includes(reference)).length;
		reportFigures('forged-webhooks', {
			forged: forgedSent,
			valid: VALID,
			duplicates_sent: duplicates + Math.floor(forgedSent / 11),
			forged_accepted: forgedAccepted,
			duplicates_emitted: duplicatesEmitted,
			valid_lost: validLost,
			answers: [...statusByKind].map(([kind, statuses]) => `${kind}:${[...statuses].join('/')}`).join(','),
		});
		expect({ forgedAccepted, duplicatesEmitted, validLost }).toEqual({ forgedAccepted: 0, duplicatesEmitted: 0, validLost: 0 });
		// Forged signatures are 401; a validly signed body that is not JSON is 400; replays are acknowledged with 200.
		for (const [kind, statuses] of statusByKind) {
			const allowed = kind === 'new-delivery-id' ? [200] : kind === 'invalid-json' ? [400, 401] : [401];
			for (const status of statuses) expect({ kind, status, allowed: allowed.includes(status) }).toEqual({ kind, status, allowed: true });
		}
	} finally {
		await wf.close();
		recentDeliveries.forget();
	}
}, sized(60_000, 1_800_000));

const FLOOD = sized(1_000, 10_000);
const FLOOD_BATCH = 200;

test(`a flood of ${FLOOD} forged deliveries (missing, malformed and wrong signatures, ${FLOOD_BATCH} at a time): at most one credential read per ${REREAD_INTERVAL_MS} ms, none accepted, then the valid event runs once`, async () => {
	const secret = fx.bank.seed.webhookSecret;
	const wf = await TriggerWorkflow.start(fx.credentials, { parameters: { events: ['COLLECTION_SUCCESS'] } });
	try {
		await wf.activate();
		// As after a quiet spell: the first forged delivery finds no secret read recently.
		recentSecrets.forget();
		const json = { 'content-type': 'application/json' };
		const kinds: Array<(body: string, i: number) => Record<string, string>> = [
			() => json,
			(_body, i) => ({ ...json, 'x-service-signature': ['sha256=', `sha256=${'0'.repeat(63)}`, `sha1=${'a'.repeat(40)}`, 'a'.repeat(64), 'sha256=zz'][i % 5] }),
			(body) => ({ ...json, 'x-service-signature': `sha256=${hmac(body, 'a-guessed-secret')}` }),
		];
		const statuses = new Map<number, number>();
		const readsBefore = fx.credentials.decryptions;
		const started = Date.now();
		for (let sent = 0; sent < FLOOD; sent += FLOOD_BATCH) {
			const answers = await Promise.all(
				Array.from({ length: Math.min(FLOOD_BATCH, FLOOD - sent) }, async (_, j) => {
					const i = sent + j;
					const body = event(`FLOOD-${i}`);
					const answer = await fetch(wf.productionUrl, { method: 'POST', body, headers: kinds[i % kinds.length](body, i) });
					await answer.arrayBuffer();
					return answer.status;
				}),
			);
			for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
		}
		const elapsedMs = Date.now() - started;
		const reads = fx.credentials.decryptions - readsBefore;
		const intervals = Math.floor(elapsedMs / REREAD_INTERVAL_MS) + 1;
		await wf.idle();
		const acceptedForged = wf.executions.length;

		const valid = event(`VALID-${randomUUID().slice(0, 8)}`);
		const signed = { ...json, 'x-service-signature': `sha256=${hmac(valid, secret)}` };
		const validAnswers: number[] = [];
		for (let copy = 0; copy < 2; copy++) {
			const answer = await fetch(wf.productionUrl, { method: 'POST', body: valid, headers: signed });
			await answer.arrayBuffer();
			validAnswers.push(answer.status);
		}
		await wf.idle();
		reportFigures('forged-flood', {
			forged: FLOOD,
			batch: FLOOD_BATCH,
			seconds: (elapsedMs / 1000).toFixed(1),
			credential_reads: reads,
			reread_intervals: intervals,
			accepted: acceptedForged,
			answers: [...statuses].map(([status, count]) => `${status}x${count}`).join(','),
			valid_runs: wf.executions.length - acceptedForged,
		});
		expect({ statuses: [...statuses.keys()], acceptedForged }).toEqual({ statuses: [401], acceptedForged: 0 });
		expect(reads).toBeLessThanOrEqual(intervals);
		expect(validAnswers).toEqual([200, 200]);
		expect(wf.executions.length - acceptedForged).toBe(1);
	} finally {
		await wf.close();
		recentDeliveries.forget();
	}
}, sized(60_000, 600_000));
