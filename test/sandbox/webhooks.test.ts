import { createHmac, timingSafeEqual } from 'node:crypto';
import { waitFor } from '../support/waitFor';
import { boot, Client, expectOk, sleep, type TransferRecord } from './helpers';
import { Receiver, type Received } from './receiver';
import type { SandboxHandle } from '../../sandbox';
import { DELIVERIES_IN_FLIGHT_PER_URL } from '../../sandbox/runtime/webhooks';

let sb: SandboxHandle;
let c: Client;
let rx: Receiver;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 10, interSettleDelayMs: 60_000, webhookRetry: { attempts: 3, baseDelayMs: 50 } }));
	rx = await new Receiver().start();
});
afterAll(async () => {
	await sb.close();
	await rx.close();
});
beforeEach(() => {
	sb.reset();
	rx.clear();
});

/** Independent check, as a receiver must do it: HMAC-SHA256 over the raw bytes, timing-safe compare. */
function verify(r: Received, secret: string): boolean {
	const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`);
	const given = Buffer.from(String(r.headers['x-service-signature']));
	return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Event<T> {
	event: string;
	data: T;
	created_at: string;
}
const parse = <T>(r: Received) => JSON.parse(r.raw.toString('utf8')) as Event<T>;

async function subscribe(events: string[], path = '/hook') {
	return c.api<{ id: string; url: string; events: string[]; created_at: string }>('customer/api/create_webhook', { url: rx.url + path, events });
}

describe('create_webhook', () => {
	it('stores url and events; the same URL again updates events and keeps the id', async () => {
		const first = await subscribe(['COLLECTION_SUCCESS']);
		expectOk(first);
		expect(first.body.data).toMatchObject({ url: `${rx.url}/hook`, events: ['COLLECTION_SUCCESS'] });
		expect(first.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(Date.parse(first.body.data.created_at)).not.toBeNaN();
		const second = await subscribe(['TRANSFER_SUCCESS', 'TRANSFER_FAILED']);
		expect(second.body.data.id).toBe(first.body.data.id);
		expect(second.body.data.events).toEqual(['TRANSFER_SUCCESS', 'TRANSFER_FAILED']);
		expect(sb.bank.webhooks).toHaveLength(1);
	});

	it('a URL registered again (the BaaS Trigger does at every start of n8n) receives each event once', async () => {
		for (let i = 0; i < 3; i++) expectOk(await subscribe(['COLLECTION_SUCCESS']));
		await c.control('POST', 'collections', { account_number: '0823100002', amount: '10.00', reference: 'COL-ONCE' });
		await rx.waitFor(1);
		await sleep(200);
		expect(rx.received).toHaveLength(1);
		expect(sb.deliveries().filter((d) => d.reference === 'COL-ONCE')).toHaveLength(1);
	});
});

describe('delivery', () => {
	it('a burst is delivered in turns: at most DELIVERIES_IN_FLIGHT_PER_URL open at once per URL, none lost', async () => {
		await subscribe(['COLLECTION_SUCCESS']);
		// Held, the receiver shows how many deliveries the bank opens at once however slow the machine is.
		rx.hold();
		const burst = DELIVERIES_IN_FLIGHT_PER_URL * 3;
		await Promise.all(
			Array.from({ length: burst }, (_, i) =>
				c.control('POST', 'collections', { account_number: '0823100002', amount: '10.00', reference: `COL-BURST-${i}` }),
			),
		);
		await waitFor('the bank to open as many deliveries as it may', () => rx.open === DELIVERIES_IN_FLIGHT_PER_URL, { timeoutMs: 10_000 });
		// No more while those stay open (a slow machine can only make this wait show fewer, never more).
		await sleep(300);
		expect(rx.open).toBe(DELIVERIES_IN_FLIGHT_PER_URL);
		rx.release();
		const got = await rx.waitFor(burst, 20_000);
		expect(new Set(got.map((r) => parse<{ reference_number: string }>(r).data.reference_number)).size).toBe(burst);
		expect(rx.maxInFlight).toBe(DELIVERIES_IN_FLIGHT_PER_URL);
	});

	it('COLLECTION_SUCCESS is POSTed, signed over the exact body bytes', async () => {
		await subscribe(['COLLECTION_SUCCESS']);
		const col = await c.control<{ reference_number: string }>('POST', 'collections', { account_number: '0823100002', amount: '1234.56', reference: 'COL-WH-1' });
		const [got] = await rx.waitFor(1);
		expect(got.headers['content-type']).toBe('application/json');
		expect(got.headers['x-service-event']).toBe('COLLECTION_SUCCESS');
		expect(got.headers['x-service-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
		expect(got.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
		expect(verify(got, sb.seed.webhookSecret)).toBe(true);
		expect(verify(got, 'some-other-secret')).toBe(false);
		const body = parse<Record<string, unknown>>(got);
		expect(body.event).toBe('COLLECTION_SUCCESS');
		expect(body.data).toEqual(col.body.data);
		expect(body.data).toMatchObject({ reference_number: 'COL-WH-1', amount: '1234.56', transaction_type: 'credit', transaction_category: 'collection' });
		expect(Date.parse(body.created_at)).not.toBeNaN();
		await waitFor('1 logged deliveries', () => sb.deliveries().length >= 1);
		const log = sb.deliveries();
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({ url: `${rx.url}/hook`, event: 'COLLECTION_SUCCESS', reference: 'COL-WH-1', attempt: 1, status: 200 });
		expect(log[0].body).toBe(got.raw.toString('utf8'));
		expect(log[0].signature).toBe(got.headers['x-service-signature']);
	});

	it('TRANSFER_SUCCESS (intra, at once) and TRANSFER_FAILED (failing beneficiary) carry the transfer record', async () => {
		await subscribe(['TRANSFER_SUCCESS', 'TRANSFER_FAILED']);
		const ok = await c.api<TransferRecord>('transaction/transfer/api/funds_transfer', {
			reference_number: 'WH-INTRA-1', transfer_type: 'intra', amount: '10.00', source_account_number: '0823000001', beneficiary_account_number: '0823100001', narration: 'wh',
		});
		const [success] = await rx.waitFor(1);
		expect(verify(success, sb.seed.webhookSecret)).toBe(true);
		expect(parse(success)).toMatchObject({ event: 'TRANSFER_SUCCESS', data: { ...ok.body.data } });

		await c.api('transaction/transfer/api/funds_transfer', {
			reference_number: 'WH-INTER-F', transfer_type: 'inter', amount: '10.00', source_account_number: '0823000001',
			beneficiary_account_number: sb.seed.failingBeneficiaries[0], bank_code: '000013', narration: 'wh',
		});
		await sleep(100);
		expect(rx.received).toHaveLength(1); // nothing until it settles
		await sb.settlePending();
		const [, failed] = await rx.waitFor(2);
		expect(verify(failed, sb.seed.webhookSecret)).toBe(true);
		expect(parse<TransferRecord>(failed)).toMatchObject({ event: 'TRANSFER_FAILED', data: { reference_number: 'WH-INTER-F', status: 'failed', transfer_type: 'inter' } });
	});

	it('only subscribed events are delivered', async () => {
		await subscribe(['TRANSFER_FAILED']);
		await c.control('POST', 'collections', { account_number: '0823100002', amount: '1.00' });
		await sleep(150);
		expect(rx.received).toHaveLength(0);
		expect(sb.deliveries()).toHaveLength(0);
	});

	it('retries after a 500 with the same body, signature and delivery id', async () => {
		await subscribe(['COLLECTION_SUCCESS']);
		rx.script = [500];
		await c.control('POST', 'collections', { account_number: '0823100002', amount: '5.00' });
		const [a, b] = await rx.waitFor(2);
		expect(b.raw.equals(a.raw)).toBe(true);
		expect(b.headers['x-service-delivery-id']).toBe(a.headers['x-service-delivery-id']);
		expect(b.headers['x-service-signature']).toBe(a.headers['x-service-signature']);
		await waitFor('2 logged deliveries', () => sb.deliveries().length >= 2);
		expect(sb.deliveries().map((d) => [d.attempt, d.status])).toEqual([
			[1, 500],
			[2, 200],
		]);
	});

	it('gives up after the configured attempts, logging each; network errors are status 0', async () => {
		await subscribe(['COLLECTION_SUCCESS']);
		await c.api('customer/api/create_webhook', { url: 'http://127.0.0.1:1/unreachable', events: ['COLLECTION_SUCCESS'] });
		rx.script = [503, 502, 500, 500];
		await c.control('POST', 'collections', { account_number: '0823100002', amount: '5.00' });
		await rx.waitFor(3);
		await waitFor('6 logged deliveries', () => sb.deliveries().length >= 6);
		await sleep(200);
		expect(rx.received).toHaveLength(3);
		const log = sb.deliveries();
		expect(log.filter((d) => d.url.startsWith(rx.url)).map((d) => d.status)).toEqual([503, 502, 500]);
		const dead = log.filter((d) => d.url.includes(':1/'));
		expect(dead.map((d) => d.attempt)).toEqual([1, 2, 3]);
		expect(dead.every((d) => d.status === 0 && d.error)).toBe(true);
	});

	it('the duplicateWebhooks fault delivers the same event twice', async () => {
		await subscribe(['COLLECTION_SUCCESS']);
		await c.control('POST', 'faults', { duplicateWebhooks: true, times: 1 });
		await c.control('POST', 'collections', { account_number: '0823100002', amount: '7.00' });
		const [a, b] = await rx.waitFor(2);
		expect(a.headers['x-service-delivery-id']).toBe(b.headers['x-service-delivery-id']);
		expect(a.raw.equals(b.raw)).toBe(true);
		// times: 1 -> the next event is delivered once
		await c.control('POST', 'collections', { account_number: '0823100002', amount: '8.00' });
		await rx.waitFor(3);
		await sleep(150);
		expect(rx.received).toHaveLength(3);
	});
});

describe('delivery time-out', () => {
	it('an attempt unanswered within webhookRetry.timeoutMs is logged as a network error and retried', async () => {
		const slow = await boot({ transactions: 0, interSettleDelayMs: 60_000, webhookRetry: { attempts: 2, baseDelayMs: 20, timeoutMs: 200 } });
		const late = await new Receiver().start();
		try {
			// Never answered (held until the receiver closes): only the time-out can end an attempt, however busy the machine.
			late.hold();
			await slow.c.api('customer/api/create_webhook', { url: `${late.url}/hook`, events: ['COLLECTION_SUCCESS'] });
			await slow.c.control('POST', 'collections', { account_number: '0823100002', amount: '3.00' });
			await waitFor('2 logged attempts', () => slow.sb.deliveries().length >= 2);
			expect(slow.sb.deliveries().map((d) => [d.attempt, d.status, /timeout/i.test(d.error ?? '')])).toEqual([
				[1, 0, true],
				[2, 0, true],
			]);
		} finally {
			await slow.sb.close();
			await late.close();
		}
	});
});
