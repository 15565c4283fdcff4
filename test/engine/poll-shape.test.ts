/**
 * Issue 20, case 10: one item shape per event whatever the credential. The shipped collection-alert example
 * reads data fields that the dashboard's list does not carry; the trigger adds them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { clearPause } from '../../nodes/BaasPollTrigger/signInPause';
import { collect, VIRTUALS } from './harness/bankActivity';
import { DASHBOARD, useBankFixture } from './harness/bankFixture';
import { PollingWorkflow } from './harness/pollWorkflow';

const fx = useBankFixture({ transactions: 0 }, () => clearPause());

let seq = 0;
const trigger = (authentication: string, credentials?: Record<string, string>) =>
	new PollingWorkflow(fx.credentials, { authentication, events: ['COLLECTION_SUCCESS'], accountNumber: VIRTUALS[5] }, credentials, `wf-shape-${++seq}`);

/** The `$json.data.<field>` names an example workflow reads. */
function dataFieldsOf(example: string): string[] {
	const text = readFileSync(join(__dirname, '../../examples', example), 'utf8');
	return [...new Set([...text.matchAll(/\$json\.data\.(\w+)/g)].map((m) => m[1]))].sort();
}

describe('Poll Trigger: one item shape per event (case 10)', () => {
	it('the Dashboard credential emits the fields the API client credential and the webhook emit (channel aside)', async () => {
		const api = trigger('apiClient');
		const web = trigger('dashboardUser', DASHBOARD);
		await api.poll();
		await web.poll();
		const reference = collect(fx.bank, VIRTUALS[5]);
		const viaApi = (await api.poll()).json[0].data as IDataObject;
		const viaWeb = (await web.poll()).json[0].data as IDataObject;
		expect(viaWeb.reference_number).toBe(reference);
		const { channel, ...apiWithoutChannel } = viaApi;
		expect(channel).toBeDefined();
		expect(viaWeb).toEqual(apiWithoutChannel);
		expect(viaWeb.narration).toBeUndefined();
	});

	it('every data field the shipped collection-alert example reads is filled with either credential', async () => {
		const fields = dataFieldsOf('collection-alert.json');
		expect(fields).toEqual(expect.arrayContaining(['account_name', 'remarks']));
		for (const [authentication, credentials] of [['apiClient', undefined], ['dashboardUser', DASHBOARD]] as const) {
			const wf = trigger(authentication, credentials);
			await wf.poll();
			collect(fx.bank, VIRTUALS[5]);
			const data = (await wf.poll()).json[0].data as IDataObject;
			for (const field of fields) expect([authentication, field, typeof data[field]]).toEqual([authentication, field, 'string']);
		}
	});
});
