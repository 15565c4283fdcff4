import { boot, Client, expectOk, sleep, withCli } from './helpers';
import { Receiver } from './receiver';
import type { SandboxHandle } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;
let rx: Receiver;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 10, deliverWebhooks: false, webhookRetry: { attempts: 2, baseDelayMs: 20 } }));
	rx = await new Receiver().start();
});
afterAll(async () => {
	await sb.close();
	await rx.close();
});

const collectOnce = (reference: string) =>
	c.control('POST', 'collections', { account_number: '0823100002', amount: '10.00', reference });

describe('webhooks off (an n8n the bank cannot reach)', () => {
	it('accepts the registration, records the event, and delivers nothing', async () => {
		expectOk(await c.api('customer/api/create_webhook', { url: `${rx.url}/hook`, events: ['COLLECTION_SUCCESS'] }));
		expectOk(await collectOnce('COL-NOHOOK-1'));
		await sleep(300);
		expect(rx.received).toHaveLength(0);
		expect(sb.deliveries()).toHaveLength(0);
		// The event is still there for a poller to find.
		const list = await c.api<Array<{ reference_number: string }>>('transaction/api/fetch_transactions', {
			filters: { reference_number: 'COL-NOHOOK-1' },
		});
		expect(list.body.data.map((t) => t.reference_number)).toEqual(['COL-NOHOOK-1']);
	});

	it('is switched at run time through POST /__sandbox/config', async () => {
		const on = await c.control<{ deliverWebhooks: boolean }>('POST', 'config', { deliverWebhooks: true });
		expect(on.body.data.deliverWebhooks).toBe(true);
		expectOk(await collectOnce('COL-NOHOOK-2'));
		await rx.waitFor(1);
		const off = await c.control<{ deliverWebhooks: boolean }>('POST', 'config', { deliverWebhooks: false });
		expect(off.body.data.deliverWebhooks).toBe(false);
		expectOk(await collectOnce('COL-NOHOOK-3'));
		await sleep(300);
		expect(rx.received.map((r) => JSON.parse(r.raw.toString('utf8')).data.reference_number)).toEqual(['COL-NOHOOK-2']);
	});

	it('npm run sandbox -- --no-webhooks starts a bank that says so', async () => {
		await withCli(['--no-webhooks', '--port', '0', '--quiet'], (banner) => {
			expect(banner).toContain('Webhooks are OFF (--no-webhooks)');
		});
	});
});
