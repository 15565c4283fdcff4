import { api, expectBankError, OPERATIONS, SAVINGS_INACTIVE, web } from './harness/accounts';
import { useBankFixture } from './harness/bankFixture';
import { expectRejectedWithoutRequest } from './harness/expectations';
import { rl } from './harness/nodeParameters';
import { runNode } from './harness/runNode';

describe('state changes', () => {
	const fx = useBankFixture();
	const state = () => fx.bank.bank;

	describe('Create', () => {
		const customer = { accountName: 'Ngozi Nwosu', email: 'ngozi@example.com', phone: '+234 803 123 4567' };

		test('opens a virtual account with a BVN, or a NIN, and it is then listed', async () => {
			const withBvn = await runNode(fx.credentials, api({ operation: 'create', ...customer, bvn: '22212345678' }));
			expect(withBvn.error).toBeUndefined();
			expect(withBvn.json).toHaveLength(1);
			expect(withBvn.json[0]).toMatchObject({ account_name: 'Ngozi Nwosu', account_type: 'virtual', status: 'active' });
			expect(withBvn.json[0].account_number).toMatch(/^\d{10}$/);
			expect(Number(withBvn.json[0].balance)).toBe(0);
			const stored = state().accounts.get(withBvn.json[0].account_number as string)!;
			expect(stored.customer).toMatchObject({ email: 'ngozi@example.com', bvn: '22212345678' });

			const withNin = await runNode(
				fx.credentials,
				api({ operation: 'create', accountName: '={{ $json.name }}', email: '={{ $json.email }}', phone: '={{ $json.phone }}', nin: '={{ $json.nin }}' }, {
					items: [{ name: 'Musa Bello', email: 'musa@example.com', phone: 8031234567, nin: 12345678901 }],
				}),
			);
			expect(withNin.error).toBeUndefined();
			expect(state().accounts.get(withNin.json[0].account_number as string)!.customer).toMatchObject({ nin: '12345678901', phone: '8031234567' });

			const listed = await runNode(fx.credentials, api({ operation: 'getAll', returnAll: true }));
			expect(listed.json.map((a) => a.account_number)).toEqual(
				expect.arrayContaining([withBvn.json[0].account_number, withNin.json[0].account_number]),
			);
		});

		test('a failed identity check is the bank\'s 83, and a write is never re-sent', async () => {
			const before = fx.count('/create_customer_account');
			await expectBankError(fx, api({ operation: 'create', ...customer, bvn: fx.bank.seed.failingIdentities[0] }), '83');
			// A 5xx leaves open whether the account was opened: outcome unknown, how to check, nothing re-sent.
			fx.bank.addFault({ match: '/create_customer_account', errorCode: '80', times: 1 });
			const down = await runNode(fx.credentials, { ...api({ operation: 'create', ...customer, nin: '12345678902' }), continueOnFail: true });
			expect(down.json[0]).toMatchObject({ outcome: 'unknown' });
			expect(String(down.json[0].error)).toMatch(/^Account "Ngozi Nwosu": outcome unknown\. No clear answer from the bank \(The bank refused the request \[80\]/);
			expect(String(down.json[0].description)).toMatch(/^Look in Account → Get Many \(Filters → Account Type: Virtual\) for an account named "Ngozi Nwosu" created since /);
			expect(fx.count('/create_customer_account') - before).toBe(2);
		});

		test('missing identity, bad BVN/NIN, e-mail or phone are refused before any request', async () => {
			const accountsBefore = state().accounts.size;
			await expectRejectedWithoutRequest(fx, api({ operation: 'create', ...customer }), /BVN or NIN is required.*item 1/);
			await expectRejectedWithoutRequest(fx, api({ operation: 'create', ...customer, bvn: '2221234567' }), /BVN must be exactly 11 digits/);
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'create', ...customer, bvn: '22212345678', nin: '1234567890A' }),
				/NIN must be exactly 11 digits/,
			);
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'create', ...customer, email: 'ngozi@', bvn: '22212345678' }),
				/Email must be a valid e-mail address/,
			);
			await expectRejectedWithoutRequest(
				fx,
				api({ operation: 'create', ...customer, phone: 'call me', bvn: '22212345678' }),
				/Phone may contain only digits/,
			);
			expect(state().accounts.size).toBe(accountsBefore);
		});
	});

	describe('Update Status', () => {
		test('deactivates and reactivates an account', async () => {
			const off = await runNode(fx.credentials, web({ operation: 'updateStatus', accountNumber: rl(OPERATIONS), status: 'inactive' }));
			expect(off.error).toBeUndefined();
			expect(off.json).toEqual([expect.objectContaining({ account_number: OPERATIONS, status: 'inactive' })]);
			expect(state().accounts.get(OPERATIONS)!.status).toBe('inactive');
			const on = await runNode(fx.credentials, web({ operation: 'updateStatus', accountNumber: rl(OPERATIONS, 'id'), status: 'active' }));
			expect(on.json[0]).toMatchObject({ status: 'active' });
			expect(state().accounts.get(OPERATIONS)!.status).toBe('active');
		});

		test('blocked (45) and unknown (44) accounts fail their own items under continueOnFail', async () => {
			const run = await runNode(
				fx.credentials,
				web(
					{ operation: 'updateStatus', accountNumber: rl('={{ $json.account }}', 'id'), status: 'active' },
					{
						items: [
							{ account: SAVINGS_INACTIVE },
							{ account: fx.bank.seed.blockedAccountNumber },
							{ account: fx.bank.seed.foreignAccountNumber },
							{ account: '123' },
						],
						continueOnFail: true,
					},
				),
			);
			expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
			expect(run.json[0]).toMatchObject({ account_number: SAVINGS_INACTIVE, status: 'active' });
			expect(run.json[1]).toMatchObject({ response_code: '45' });
			expect(run.json[2]).toMatchObject({ response_code: '44' });
			expect(run.json[3].error).toMatch(/Account Number must be exactly 10 digits \(got "123"\) in item 4/);
			expect(run.json[3].response_code).toBeUndefined();
			expect(state().accounts.get(fx.bank.seed.blockedAccountNumber)!.status).toBe('blocked');
		});

		test('a status other than active/inactive, or a bad number, is refused before any request', async () => {
			await expectRejectedWithoutRequest(
				fx,
				web({ operation: 'updateStatus', accountNumber: rl(OPERATIONS), status: '={{ "closed" }}' }),
				/Status must be one of active, inactive \(got "closed"\)/,
			);
			await expectRejectedWithoutRequest(
				fx,
				web({ operation: 'updateStatus', accountNumber: '={{ "0823-000002" }}', status: 'inactive' }),
				/Account Number must be exactly 10 digits/,
			);
			expect(state().accounts.get(OPERATIONS)!.status).toBe('active');
		});
	});
});
