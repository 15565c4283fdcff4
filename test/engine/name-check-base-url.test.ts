/**
 * Issue 34, item 4: Check Beneficiary Name compares the two credentials' Base URLs by the bank they name, and its
 * refusal (which a model and n8n's log read) never shows a Base URL's user-info.
 */
import type { IDataObject } from 'n8n-workflow';

import { createParams, newReference, useTransferBank } from './harness/transfers';
import { runNode } from './harness/runNode';

const { fx, transfersWith } = useTransferBank();
const PASSWORD = 'P4ssw0rd-gw';

const checked = (reference: string, credentials: Record<string, string>) =>
	runNode(fx.credentials, {
		parameters: createParams({
			checkBeneficiaryName: true,
			additionalFields: { beneficiaryAccountName: 'Adaeze Okonkwo' },
		}),
		credentials,
		items: [{ reference_number: reference }],
		// Version 2: the node that takes the second (dashboard) credential the check needs.
		typeVersion: 2,
	});

function apiCredentialAt(id: string, baseUrl: string) {
	fx.credentials.add(id, 'baasApi', { ...fx.credentials.stored('api-1')!, baseUrl });
}

describe('Check Beneficiary Name and the two Base URLs (issue 34, item 4)', () => {
	test('a gateway with basic auth in front of another bank: refused, and neither message nor description holds the password', async () => {
		apiCredentialAt('api-gateway', `http://gateway:${PASSWORD}@gateway.example:8080`);
		const reference = newReference('gateway');
		const run = await checked(reference, { baasApi: 'api-gateway', baasDashboardApi: 'web-1' });
		expect(run.error?.message).toContain(`Transfer ${reference} was not sent`);
		expect(run.error?.message).toContain('(http://gateway.example:8080)');
		for (const text of [run.error?.message, run.error?.description, JSON.stringify(run.error)]) {
			expect(text).not.toContain(PASSWORD);
			expect(text).not.toContain('gateway:');
		}
		expect(fx.count('/funds_transfer')).toBe(0);
		expect(transfersWith(reference)).toHaveLength(0);
	});

	// (User-info is left out here: n8n's HTTP helper would send it as Basic auth instead of the token; the unit test
	// test/unit/bank-address.test.ts shows it is no part of the comparison.)
	test('the same bank spelled another way (case, trailing slash) is checked and paid', async () => {
		apiCredentialAt('api-spelled', `${fx.bank.url.toUpperCase()}/`);
		const reference = newReference('spelled');
		const run = await checked(reference, { baasApi: 'api-spelled', baasDashboardApi: 'web-1' });
		expect(run.error).toBeUndefined();
		expect(run.json[0] as IDataObject).toMatchObject({ reference_number: reference, status: 'successful' });
		expect(transfersWith(reference)).toHaveLength(1);
	});
});
