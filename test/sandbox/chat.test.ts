/** The sandbox's chat inbox: the channel the no-account examples post their "chat message" to. */
import type { SandboxHandle } from '../../sandbox';
import { boot, Client, expectOk } from './helpers';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 10 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

interface Message {
	text: string;
	received_at: string;
}

describe('chat inbox', () => {
	it('keeps posted messages in order and returns them as JSON', async () => {
		expectOk(await c.control('POST', 'chat', { text: 'first' }));
		// Slack's other fields are accepted, as a Slack incoming webhook accepts them.
		expectOk(await c.control('POST', 'chat', { text: 'second\nline', username: 'n8n' }));
		const r = await c.control<Message[]>('GET', 'chat');
		expectOk(r);
		expect(r.body.data.map((m) => m.text)).toEqual(['first', 'second\nline']);
		expect(Number.isNaN(Date.parse(r.body.data[0].received_at))).toBe(false);
	});

	it('refuses a message without text', async () => {
		const r = await c.control('POST', 'chat', { blocks: [] });
		expect(r.status).toBe(400);
		expect(r.body.message).toMatch(/text/);
		expect((await c.control<Message[]>('GET', 'chat')).body.data).toEqual([]);
	});

	it('shows a browser an HTML page with the messages escaped, newest first', async () => {
		await c.control('POST', 'chat', { text: 'older' });
		await c.control('POST', 'chat', { text: 'NGN 5.00 <b>received</b>' });
		const page = await fetch(`${sb.url}/__sandbox/chat`, { headers: { accept: 'text/html,application/xhtml+xml' } });
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		const html = await page.text();
		expect(html).toContain('NGN 5.00 &lt;b&gt;received&lt;/b&gt;');
		expect(html).not.toContain('<b>received</b>');
		expect(html.indexOf('received&lt;')).toBeLessThan(html.indexOf('older'));
	});

	it('is emptied by DELETE and by a sandbox reset', async () => {
		await c.control('POST', 'chat', { text: 'one' });
		expectOk(await c.control('DELETE', 'chat'));
		expect((await c.control<Message[]>('GET', 'chat')).body.data).toEqual([]);
		await c.control('POST', 'chat', { text: 'two' });
		sb.reset();
		expect((await c.control<Message[]>('GET', 'chat')).body.data).toEqual([]);
	});
});
