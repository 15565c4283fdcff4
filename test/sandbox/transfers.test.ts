import { boot, Client, expectError, expectOk, sleep, type TransferRecord, type TxApi } from './helpers';
import type { SandboxHandle } from '../../sandbox';

let sb: SandboxHandle;
let c: Client;

beforeAll(async () => {
	({ sb, c } = await boot({ transactions: 100, interSettleDelayMs: 60_000 }));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const POOL = '0823000001';
const VIRTUAL = '0823100001';
let seq = 0;
const ref = () => `T-${Date.now()}-${++seq}`;

function intra(extra: Record<string, unknown> = {}) {
	return { reference_number: ref(), transfer_type: 'intra', amount: '1500.00', source_account_number: POOL, beneficiary_account_number: VIRTUAL, narration: 'intra test', ...extra };
}
function inter(extra: Record<string, unknown> = {}) {
	const ext = sb.seed.externalAccounts[5];
	return {
		reference_number: ref(),
		transfer_type: 'inter',
		amount: '2500.50',
		source_account_number: POOL,
		beneficiary_account_number: ext.account_number,
		beneficiary_account_name: ext.account_name,
		bank_code: ext.bank_code,
		narration: 'inter test',
		...extra,
	};
}
const transfer = (body: unknown) => c.api<TransferRecord>('transaction/transfer/api/funds_transfer', body);
const status = (reference: string) => c.api<TransferRecord>('transaction/transfer/api/transaction_status', { reference_number: reference });

describe('fetch_banks and name_enquiry', () => {
	it('lists ~20 banks with the own bank 090823 and null cbn codes for microfinance banks', async () => {
		const r = await c.api<Array<{ name: string; code: string; cbn_code: string | null; updated_at: string }>>('transaction/transfer/api/fetch_banks');
		expectOk(r);
		expect(r.body.data.length).toBeGreaterThanOrEqual(20);
		expect(r.body.data.map((b) => b.code)).toContain('090823');
		expect(r.body.data.some((b) => b.cbn_code === null)).toBe(true);
		expect(r.body.data.every((b) => !Number.isNaN(Date.parse(b.updated_at)))).toBe(true);
	});

	it('resolves own-bank accounts locally, including another business’s', async () => {
		const own = await c.web<{ account_name: string; account_number: string; bank_name: string }>('transaction/transfer/web/name_enquiry', {
			beneficiary_account_number: VIRTUAL,
			bank_code: '090823',
			source_account_number: POOL,
		});
		expectOk(own);
		expect(own.body.data).toEqual({ account_name: 'Adaeze Okonkwo', account_number: VIRTUAL, bank_name: 'Sandbox Microfinance Bank' });
		const foreign = await c.web<{ account_name: string }>('transaction/transfer/web/name_enquiry', {
			beneficiary_account_number: sb.seed.foreignAccountNumber,
			bank_code: '090823',
			source_account_number: POOL,
		});
		expect(foreign.body.data.account_name).toBe('Northwind Traders Ltd');
	});

	it('resolves the documented other-bank accounts and rejects the rest with 83', async () => {
		expect(sb.seed.externalAccounts.length).toBeGreaterThanOrEqual(40);
		const ext = sb.seed.externalAccounts[7];
		const r = await c.web<{ account_name: string; bank_name: string }>('transaction/transfer/web/name_enquiry', {
			beneficiary_account_number: ext.account_number,
			bank_code: ext.bank_code,
			source_account_number: POOL,
		});
		expect(r.body.data.account_name).toBe(ext.account_name);
		const wrongBank = sb.seed.externalAccounts.find((e) => e.bank_code !== ext.bank_code)?.bank_code;
		expectError(
			await c.web('transaction/transfer/web/name_enquiry', { beneficiary_account_number: ext.account_number, bank_code: wrongBank, source_account_number: POOL }),
			200,
			'83',
		);
		expectError(
			await c.web('transaction/transfer/web/name_enquiry', { beneficiary_account_number: '0000000001', bank_code: '090823', source_account_number: POOL }),
			200,
			'83',
		);
	});

	it('refuses a source account the caller does not own with 44', async () => {
		expectError(
			await c.web('transaction/transfer/web/name_enquiry', { beneficiary_account_number: VIRTUAL, bank_code: '090823', source_account_number: sb.seed.foreignAccountNumber }),
			200,
			'44',
		);
	});
});

describe('intra-bank transfers', () => {
	it('complete at once, move both balances and appear as a debit', async () => {
		const [src, dst] = [c.balance(POOL), c.balance(VIRTUAL)];
		const body = intra();
		const r = await transfer(body);
		expectOk(r);
		expect(r.body.data).toMatchObject({ reference_number: body.reference_number, amount: '1500.00', transfer_type: 'intra', status: 'successful', remarks: 'intra test' });
		expect(r.body.data.transaction_id).toMatch(/^[0-9a-f-]{36}$/);
		expect(c.balance(POOL)).toBe(src - 150_000n);
		expect(c.balance(VIRTUAL)).toBe(dst + 150_000n);
		const st = await status(body.reference_number);
		expect(st.body.data.status).toBe('successful');
		const tx = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { reference_number: body.reference_number } });
		expect(tx.body.data).toEqual([
			expect.objectContaining({ transaction_type: 'debit', transaction_category: 'transfer', channel: 'intra', status: 'success', amount: '1500.00', account_number: POOL }),
		]);
	});

	it('refuse a beneficiary that is not an own-bank account, or not active, with 83', async () => {
		const before = c.balance(POOL);
		expectError(await transfer(intra({ beneficiary_account_number: '0000000009' })), 200, '83');
		expectError(await transfer(intra({ beneficiary_account_number: sb.seed.blockedAccountNumber })), 200, '83');
		expect(c.balance(POOL)).toBe(before);
	});
});

describe('inter-bank transfers', () => {
	it('debit at once, stay pending, then succeed (settlePending)', async () => {
		const before = c.balance(POOL);
		const body = inter();
		const r = await transfer(body);
		expectOk(r);
		expect(r.body.data).toMatchObject({ status: 'pending', transfer_type: 'inter', amount: '2500.50' });
		expect(c.balance(POOL)).toBe(before - 250_050n);
		expect((await status(body.reference_number)).body.data.status).toBe('pending');
		await sb.settlePending();
		const st = await status(body.reference_number);
		expect(st.body.data.status).toBe('successful');
		expect(Date.parse(st.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(st.body.data.created_at));
		expect(c.balance(POOL)).toBe(before - 250_050n);
		const tx = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { reference_number: body.reference_number } });
		expect(tx.body.data[0]).toMatchObject({ status: 'success', channel: 'nip' });
	});

	it('settle on their own after interSettleDelayMs', async () => {
		sb.configure({ interSettleDelayMs: 100 });
		try {
			const body = inter();
			await transfer(body);
			await sleep(400);
			expect((await status(body.reference_number)).body.data.status).toBe('successful');
		} finally {
			sb.configure({ interSettleDelayMs: 60_000 });
		}
	});

	it.each([0, 1])('to failing beneficiary #%i end failed and the debit is reversed', async (i) => {
		const before = c.balance(POOL);
		const failing = sb.seed.failingBeneficiaries[i];
		const bank = sb.seed.externalAccounts.find((e) => e.account_number === failing)?.bank_code ?? '000013';
		const body = inter({ beneficiary_account_number: failing, bank_code: bank });
		expect((await transfer(body)).body.data.status).toBe('pending');
		expect(c.balance(POOL)).toBe(before - 250_050n);
		await c.control('POST', 'settle');
		expect((await status(body.reference_number)).body.data.status).toBe('failed');
		expect(c.balance(POOL)).toBe(before);
		const tx = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { reference_number: body.reference_number } });
		expect(tx.body.data[0].status).toBe('failed');
	});

	it('refuse the own bank code and unknown bank codes with 99', async () => {
		expectError(await transfer(inter({ bank_code: '090823' })), 400, '99', /bank_code/);
		expectError(await transfer(inter({ bank_code: '123456' })), 400, '99', /bank_code/);
	});
});

describe('refusals', () => {
	it('a duplicate reference -> 26, debited once', async () => {
		const before = c.balance(POOL);
		const body = intra();
		expectOk(await transfer(body));
		expectError(await transfer(body), 200, '26', /duplicate/i);
		expectError(await transfer({ ...body, amount: '1.00', transfer_type: 'inter', bank_code: '000013' }), 200, '26');
		expect(c.balance(POOL)).toBe(before - 150_000n);
		const tx = await c.api<TxApi[]>('transaction/api/fetch_transactions', { filters: { reference_number: body.reference_number } });
		expect(tx.body.data).toHaveLength(1);
	});

	it('insufficient funds -> 51, nothing moves', async () => {
		const poor = '0823100003';
		const before = c.balance(poor);
		const tooMuch = `${(before / 100n + 1n).toString()}.00`;
		expectError(await transfer(intra({ source_account_number: poor, beneficiary_account_number: VIRTUAL, amount: tooMuch })), 200, '51');
		expect(c.balance(poor)).toBe(before);
	});

	it('a source account of another business -> 44; a blocked, closed or inactive one -> 57', async () => {
		expectError(await transfer(intra({ source_account_number: sb.seed.foreignAccountNumber })), 200, '44');
		expectError(await transfer(intra({ source_account_number: sb.seed.blockedAccountNumber })), 200, '57');
		expectError(await transfer(intra({ source_account_number: sb.seed.closedAccountNumber })), 200, '57');
		expectError(await transfer(intra({ source_account_number: '0823000003' })), 200, '57');
	});

	it('transaction_status of an unknown reference -> 06 with data null', async () => {
		expectError(await status('NO-SUCH-REF'), 200, '06');
	});

	it('transaction_status also answers for transfers in the generated history', async () => {
		const debit = sb.bank.transactions.find((t) => t.type === 'debit' && t.businessId === sb.bank.main.id);
		const r = await status(debit?.reference as string);
		expectOk(r);
		expect(['successful', 'failed']).toContain(r.body.data.status);
	});
});
