import { SIGN_IN_LIMITS } from '../../nodes/common/transport/session';
import { POLL_LIMITS } from '../../nodes/BaasPollTrigger/settings';
import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, settle, transfer, VIRTUALS } from './harness/bankActivity';
import { DASHBOARD, useBankFixture } from './harness/bankFixture';
import { PollingWorkflow } from './harness/pollWorkflow';

const ALL_EVENTS = ['COLLECTION_SUCCESS', 'TRANSFER_SUCCESS', 'TRANSFER_FAILED'];
const DEFAULT_DELAYS = [...POLL_LIMITS.recheckDelaysMs];
const DEFAULT_PAUSE = SIGN_IN_LIMITS.pauseMs;

const fx = useBankFixture({}, () => {
	POLL_LIMITS.recheckDelaysMs = DEFAULT_DELAYS;
	POLL_LIMITS.pageSize = 100;
	SIGN_IN_LIMITS.pauseMs = DEFAULT_PAUSE;
	clearPause();
	fx.bank.configure({ listShape: 'documented' });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let workflowSeq = 0;
function pollingWorkflow(parameters: Record<string, unknown> = {}, credentials?: Record<string, string>) {
	return new PollingWorkflow(
		fx.credentials,
		{ authentication: 'apiClient', events: ALL_EVENTS, ...parameters },
		credentials,
		`wf-poll-${++workflowSeq}`,
	);
}

const references = (json: Array<Record<string, unknown>>) =>
	json.map((item) => ((item.data ?? item) as Record<string, unknown>).reference_number);

describe('BaaS (Polling) Trigger: scheduled polls', () => {
	it('starts from now: the first poll emits no history, the next emits each new collection once', async () => {
		const wf = pollingWorkflow();
		const first = await wf.poll();
		expect(first.error).toBeUndefined();
		expect(first.items).toHaveLength(0);

		const a = collect(fx.bank, VIRTUALS[0]);
		const b = collect(fx.bank, VIRTUALS[2]);
		const second = await wf.poll();
		expect(second.error).toBeUndefined();
		expect(references(second.json).sort()).toEqual([a, b].sort());
		expect(second.json.find((item) => (item.data as { reference_number: string }).reference_number === a)).toMatchObject({
			event: 'COLLECTION_SUCCESS',
			source: 'poll',
			data: { reference_number: a, account_number: VIRTUALS[0], amount: '1.00', transaction_type: 'credit', status: 'success' },
		});
		expect(typeof second.json[0].created_at).toBe('string');

		const third = await wf.poll();
		expect(third.items).toHaveLength(0);
	});

	it('Event Data Only emits the record itself, as the BaaS Trigger does', async () => {
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'], options: { output: 'data' } });
		await wf.poll();
		const reference = collect(fx.bank);
		const { json } = await wf.poll();
		expect(json).toHaveLength(1);
		expect(json[0]).toMatchObject({ reference_number: reference, transaction_category: 'collection' });
		expect(json[0].event).toBeUndefined();
	});

	it('emits transfer outcomes once they are final: at once for intra, after re-checks for pending inter-bank ones', async () => {
		POLL_LIMITS.recheckDelaysMs = [0];
		const wf = pollingWorkflow({ events: ['TRANSFER_SUCCESS', 'TRANSFER_FAILED'] });
		await wf.poll();
		const intra = transfer(fx.bank, 'intra');
		const inter = transfer(fx.bank, 'inter');
		const failing = transfer(fx.bank, 'failing');

		const first = await wf.poll();
		expect(first.json).toEqual([
			expect.objectContaining({ event: 'TRANSFER_SUCCESS', data: expect.objectContaining({ reference_number: intra.reference, status: 'successful', transaction_id: intra.id }) }),
		]);
		const stillPending = await wf.poll();
		expect(stillPending.items).toHaveLength(0);

		settle(fx.bank, inter);
		settle(fx.bank, failing);
		const settled = await wf.poll();
		expect(settled.json.map((item) => [item.event, (item.data as { reference_number: string }).reference_number]).sort()).toEqual([
			['TRANSFER_FAILED', failing.reference],
			['TRANSFER_SUCCESS', inter.reference],
		]);
		expect((await wf.poll()).items).toHaveLength(0);
	});

	it('re-checks a pending transfer with growing waits, not on every poll', async () => {
		POLL_LIMITS.recheckDelaysMs = [0, 60_000];
		const wf = pollingWorkflow({ events: ['TRANSFER_SUCCESS'] });
		await wf.poll();
		transfer(fx.bank, 'inter');
		await wf.poll();
		const before = fx.count('/transaction_status');
		await wf.poll(); // due at once (first wait 0): one check, then the next wait is a minute
		await wf.poll();
		await wf.poll();
		expect(fx.count('/transaction_status') - before).toBe(1);
	});

	it('Start From backfills the events since that moment on first activation', async () => {
		const since = Date.now();
		const early = collect(fx.bank, VIRTUALS[3], since + 1);
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'], options: { startFrom: new Date(since).toISOString() } });
		const first = await wf.poll();
		expect(references(first.json)).toEqual([early]);
		expect((await wf.poll()).items).toHaveLength(0);
	});

	it('watches one account when Account Number is set', async () => {
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'], accountNumber: VIRTUALS[4] });
		await wf.poll();
		collect(fx.bank, VIRTUALS[0]);
		const mine = collect(fx.bank, VIRTUALS[4]);
		expect(references((await wf.poll()).json)).toEqual([mine]);
	});

	it('refuses a malformed Account Number before any request', async () => {
		const before = fx.bank.requests().length;
		const result = await pollingWorkflow({ accountNumber: '12345' }).poll();
		expect(result.error?.message).toBe('Account Number must be exactly 10 digits');
		expect(fx.bank.requests().length).toBe(before);
	});

	it('works with the dashboard credential (records as the dashboard lists them)', async () => {
		const wf = pollingWorkflow({ authentication: 'dashboardUser', events: ALL_EVENTS }, DASHBOARD);
		await wf.poll();
		const reference = collect(fx.bank, VIRTUALS[5]);
		const intra = transfer(fx.bank, 'intra');
		const { json, error } = await wf.poll();
		expect(error).toBeUndefined();
		expect(json.map((item) => [item.event, (item.data as { reference_number: string }).reference_number])).toEqual([
			['COLLECTION_SUCCESS', reference],
			['TRANSFER_SUCCESS', intra.reference],
		]);
	});
});

describe('BaaS (Polling) Trigger: exactly once at the edges', () => {
	// The cursor shape (ids): the trigger's page-number path is judged by poll-contract-*.test.ts (issue 26).
	it('a burst sharing one timestamp across page boundaries is emitted once, whole (cursor list shape)', async () => {
		fx.bank.configure({ listShape: 'cursor' });
		POLL_LIMITS.pageSize = 3;
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'] });
		await wf.poll();
		const at = Date.now();
		const burst = Array.from({ length: 10 }, () => collect(fx.bank, VIRTUALS[0], at));
		const first = await wf.poll();
		expect(new Set(references(first.json))).toEqual(new Set(burst));
		expect(first.json).toHaveLength(10);
		// More records at the very same instant, after the poll: found, and the earlier ones not repeated.
		const late = [collect(fx.bank, VIRTUALS[0], at), collect(fx.bank, VIRTUALS[0], at)];
		const second = await wf.poll();
		expect(new Set(references(second.json))).toEqual(new Set(late));
	});

	it('a record the bank writes late (within the overlap window) is still emitted, once', async () => {
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'] });
		const started = Date.now();
		await wf.poll();
		await pause(20);
		collect(fx.bank);
		await wf.poll();
		const late = collect(fx.bank, VIRTUALS[1], started + 5);
		expect(references((await wf.poll()).json)).toEqual([late]);
		expect((await wf.poll()).items).toHaveLength(0);
	});

	it('a failed poll (80, 429, dropped connection) emits nothing and the next poll resumes where it left off', async () => {
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'] });
		await wf.poll();
		const made: string[] = [];
		for (const fault of [{ errorCode: '80' }, { rateLimit: { retryAfterSeconds: 1 } }, { drop: 'before' as const }]) {
			made.push(collect(fx.bank));
			fx.bank.addFault({ match: 'fetch_transactions', times: 1, ...fault });
			const failed = await wf.poll();
			expect(failed.error).toBeDefined();
			expect(failed.items).toHaveLength(0);
		}
		expect(references((await wf.poll()).json)).toEqual(made);
	});

	it('a refused sign-in fails the poll with a clear error, and scheduled polls stop asking for a while', async () => {
		fx.credentials.add('bad-api', 'baasApi', {
			baseUrl: fx.bank.url,
			clientId: fx.bank.seed.clientId,
			clientSecret: 'wrong-secret',
			webhookSecret: '',
			accessToken: '',
		});
		const wf = pollingWorkflow({}, { baasApi: 'bad-api' });
		const before = fx.count('/generate_token');
		const first = await wf.poll();
		expect(first.error?.message).toMatch(/The bank refused to sign in/);
		expect(first.error?.message).not.toContain('wrong-secret');
		for (let i = 0; i < 6; i++) {
			const paused = await wf.poll();
			expect(paused.error?.message).toMatch(/^The bank refused to sign in: .*It is not tried again until \d\d:\d\d UTC/);
		}
		expect(fx.count('/generate_token') - before).toBe(1);

		// Fetch Test Event with the same secret is not tried either; a corrected credential signs in at once, and
		// the scheduled polls with it.
		expect((await wf.poll('manual')).error?.message).toMatch(/The bank refused to sign in/);
		expect(fx.count('/generate_token') - before).toBe(1);
		fx.credentials.add('bad-api', 'baasApi', { ...fx.credentials.stored('api-1')!, accessToken: '' });
		const fixed = await wf.poll('manual');
		expect(fixed.error).toBeUndefined();
		expect((await wf.poll()).error).toBeUndefined();
	});

	it('tries the sign-in again once the pause is over', async () => {
		SIGN_IN_LIMITS.pauseMs = 0;
		fx.credentials.add('bad-api-2', 'baasApi', {
			baseUrl: fx.bank.url,
			clientId: fx.bank.seed.clientId,
			clientSecret: 'wrong-secret',
			webhookSecret: '',
			accessToken: '',
		});
		const wf = pollingWorkflow({}, { baasApi: 'bad-api-2' });
		expect((await wf.poll()).error?.message).toMatch(/refused to sign in/);
		fx.credentials.add('bad-api-2', 'baasApi', { ...fx.credentials.stored('api-1')!, accessToken: '' });
		const resumed = await wf.poll();
		expect(resumed.error).toBeUndefined();
		expect((await wf.poll()).error).toBeUndefined();
	});
});

describe('BaaS (Polling) Trigger: Fetch Test Event', () => {
	it('returns the most recent matching event and leaves the cursor alone', async () => {
		const wf = pollingWorkflow({ events: ['COLLECTION_SUCCESS'] });
		await wf.poll();
		const saved = JSON.stringify(wf.saved);
		collect(fx.bank);
		await pause(5);
		const newest = collect(fx.bank, VIRTUALS[2]);
		const manual = await wf.poll('manual');
		expect(references(manual.json)).toEqual([newest]);
		expect(JSON.stringify(wf.saved)).toBe(saved);
		expect((await wf.poll()).items).toHaveLength(2);
	});

	it('returns the newest transfer outcome for the transfer events', async () => {
		const wf = pollingWorkflow({ events: ['TRANSFER_SUCCESS'] });
		const intra = transfer(fx.bank, 'intra');
		const manual = await wf.poll('manual');
		expect(manual.json).toEqual([expect.objectContaining({ event: 'TRANSFER_SUCCESS', data: expect.objectContaining({ reference_number: intra.reference }) })]);
	});
});
