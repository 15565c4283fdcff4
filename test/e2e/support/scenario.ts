import { createHmac } from 'node:crypto';
import { statSync } from 'node:fs';

import type { Execution } from '../../../scripts/n8n/api';
import { listExecutions, nodeOutput } from '../../../scripts/n8n/api';
import type { N8nLine } from '../../../scripts/n8n/paths';
import { describeEditor } from './editorScenario';
import { sendAndHangUp, signedCollection } from './hangUp';
import { waitFor } from '../../support/waitFor';
import { screenshotWorkflow } from './screenshot';
import { describeSignInGuard } from './signInGuard';
import type { Stack } from './stack';
import { startStack } from './stack';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** n8n runs the executions in the background: ask its API once a second, for up to 3 minutes. */
const eventually = <T>(what: string, probe: () => Promise<T | undefined>) =>
	waitFor(what, probe, { timeoutMs: 180_000, intervalMs: 1_000 });

const finished = (executions: Execution[]) => executions.filter((e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting');

interface LedgerTransfer {
	reference_number: string;
	status: string;
	amount: string;
	beneficiary_account_number: string;
}

/** The tests of one n8n line: the product as users run it, read back through n8n's public API. */
export function describeLine(line: N8nLine, port: number) {
	jest.setTimeout(300_000);
	describe(`n8n ${line.version} (${line.name}, Node ${line.nodeMajor})`, () => {
		let stack: Stack;
		const executions = async (workflowId: string) => await listExecutions(stack.n8n.url, stack.apiKey, workflowId);

		beforeAll(async () => {
			stack = await startStack(line, port);
		}, 40 * 60_000);
		afterAll(async () => {
			await stack?.stop();
		}, 120_000);

		test('activating the collection workflow registered its production URL and events with the bank', async () => {
			const ledger = (await (await fetch(`${stack.bank.url}/__sandbox/ledger`)).json()) as {
				data: { webhooks: Array<{ url: string; events: string[] }> };
			};
			expect(ledger.data.webhooks).toContainEqual(
				expect.objectContaining({ url: `${stack.n8n.url}/${stack.workflows.collection.webhookPath}`, events: ['COLLECTION_SUCCESS'] }),
			);
		});

		test('the collection workflow runs once per simulated collection, with the right amount and reference', async () => {
			const account = stack.bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const collections = [
				{ reference: `E2E-COL-${line.nodeMajor}-1`, amount: '1500.00' },
				{ reference: `E2E-COL-${line.nodeMajor}-2`, amount: '0.01' },
				{ reference: `E2E-COL-${line.nodeMajor}-3`, amount: '98765432.10' },
			];
			for (const collection of collections) {
				const response = await fetch(`${stack.bank.url}/__sandbox/collections`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ account_number: account.account_number, ...collection }),
				});
				expect(response.status).toBe(200);
			}
			const runs = await eventually('three collection executions', async () => {
				const done = finished(await executions(stack.workflows.collection.id));
				return done.length >= 3 ? done : undefined;
			});
			await sleep(3_000);
			expect(finished(await executions(stack.workflows.collection.id))).toHaveLength(3);
			expect(runs.every((run) => run.status === 'success')).toBe(true);
			const events = runs.map((run) => nodeOutput(run, 'Money Received')[0]);
			expect(events.map((event) => (event.data as Record<string, string>).reference_number).sort()).toEqual(
				collections.map((c) => c.reference).sort(),
			);
			for (const event of events) {
				const data = event.data as Record<string, string>;
				expect(event.event).toBe('COLLECTION_SUCCESS');
				expect(data.amount).toBe(collections.find((c) => c.reference === data.reference_number)!.amount);
			}
			const rows = stack.receiver.received('/sheet');
			expect(rows.map((row) => [row.Reference, row['Amount (NGN)']]).sort()).toEqual(
				collections.map((c) => [c.reference, c.amount]).sort(),
			);
			expect(stack.receiver.received('/chat').map((m) => m.text)).toEqual(
				expect.arrayContaining([expect.stringContaining(`NGN 98765432.10 received on ${account.account_number}`)]),
			);
		});

		test('a forged delivery to the production URL is refused with 401 and starts no execution', async () => {
			const before = (await executions(stack.workflows.collection.id)).length;
			const body = JSON.stringify({
				event: 'COLLECTION_SUCCESS',
				data: { reference_number: 'FORGED-1', amount: '5000000.00', account_number: stack.bank.seed.poolAccountNumber },
				created_at: new Date().toISOString(),
			});
			const signature = `sha256=${createHmac('sha256', 'not-the-webhook-secret').update(body).digest('hex')}`;
			const response = await fetch(`${stack.n8n.url}/${stack.workflows.collection.webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-service-signature': signature },
				body,
			});
			expect(response.status).toBe(401);
			const unsigned = await fetch(`${stack.n8n.url}/${stack.workflows.collection.webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body,
			});
			expect(unsigned.status).toBe(401);
			await sleep(3_000);
			expect(await executions(stack.workflows.collection.id)).toHaveLength(before);
		});

		test('a webhook delivery whose bank hangs up early runs once (the bank retries it whole)', async () => {
			const account = stack.bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const url = `${stack.n8n.url}/${stack.workflows.collection.webhookPath}`;
			const deliver = (reference: string) => signedCollection(reference, account.account_number, stack.bank.seed.webhookSecret);
			// How long n8n takes to answer a delivery here, so that the hang-ups fall around the moment it starts the execution.
			const answerMs: number[] = [];
			for (let i = 0; i < 3; i++) {
				const delivery = deliver(`E2E-HANGUP-${line.nodeMajor}-TIMING-${i}`);
				const started = Date.now();
				expect((await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body })).status).toBe(200);
				answerMs.push(Date.now() - started);
			}
			const typical = [...answerMs].sort((a, b) => a - b)[1];
			// The hang-up at moments from well before n8n's usual answer to after it: before n8n read the body, while it starts the execution, after it answered.
			const delays = Array.from({ length: 25 }, (_, i) => Math.round(typical * (0.3 + i * 0.04)));
			const deliveries = delays.map((delay, i) => deliver(`E2E-HANGUP-${line.nodeMajor}-${i}-${delay}ms`));
			const answeredFirst: Array<number | undefined> = [];
			for (const [i, delivery] of deliveries.entries()) answeredFirst.push(await sendAndHangUp(url, delivery, delays[i]));
			await sleep(3_000);
			const referenceOf = (run: Execution) => String((nodeOutput(run, 'Money Received')[0]?.data as Record<string, string> | undefined)?.reference_number);
			const references = deliveries.map((d) => (JSON.parse(d.body) as { data: { reference_number: string } }).data.reference_number);
			const ranBeforeRetry = new Set((await executions(stack.workflows.collection.id)).map(referenceOf));
			for (const delivery of deliveries) {
				const retry = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
				expect(retry.status).toBe(200);
			}
			await eventually('an execution per hung-up delivery', async () => {
				const ran = new Set(finished(await executions(stack.workflows.collection.id)).map(referenceOf));
				return references.every((reference) => ran.has(reference)) ? true : undefined;
			});
			await sleep(3_000);
			const runs = (await executions(stack.workflows.collection.id)).map(referenceOf);
			const startedThenHungUp = references.filter((reference, i) => ranBeforeRetry.has(reference) && answeredFirst[i] === undefined);
			process.stdout.write(
				`e2e hang-up n8n ${line.version}: answer_ms=${answerMs.join(',')} hang_up_after_ms=${delays[0]}..${delays[delays.length - 1]} deliveries=${references.length} hung_up_before_answer=${answeredFirst.filter((s) => s === undefined).length} started_then_hung_up=${startedThenHungUp.length} runs_per_event=${references.map((r) => runs.filter((x) => x === r).length).join(',')}\n`,
			);
			for (const reference of references) expect({ reference, runs: runs.filter((r) => r === reference).length }).toEqual({ reference, runs: 1 });
		});

		test('payouts over 20 rows pay exactly the right rows, once, and write each outcome back', async () => {
			const { externalAccounts, failingBeneficiaries } = stack.bank.seed;
			const payable = externalAccounts.filter((a) => !failingBeneficiaries.includes(a.account_number));
			const failing = externalAccounts.find((a) => failingBeneficiaries.includes(a.account_number))!;
			const prefix = `E2E-PAY-${line.nodeMajor}`;
			const rows = [
				...payable.slice(0, 17).map((a, i) => ({ ...a, reference: `${prefix}-${i + 1}`, amount: `${100 + i}.50` })),
				...payable.slice(17, 19).map((a, i) => ({ ...a, account_name: `Someone Else ${i}`, reference: `${prefix}-MISMATCH-${i + 1}`, amount: '2500' })),
				{ ...failing, reference: `${prefix}-FAILS`, amount: '7000.00' },
			].map((row, i) => ({ ...row, narration: `Payout ${row.reference}`, row_number: i + 2 })); // as Google Sheets reads them
			stack.receiver.setRows(rows);

			const response = await fetch(`${stack.n8n.url}/${stack.workflows.payouts.webhookPath}`, { method: 'POST' });
			expect(response.status).toBe(200);
			const run = await eventually('the payout execution', async () => finished(await executions(stack.workflows.payouts.id))[0]);
			expect(run.status).toBe('success');

			const ledger = (await (await fetch(`${stack.bank.url}/__sandbox/ledger`)).json()) as { data: { transfers: LedgerTransfer[] } };
			const ours = ledger.data.transfers.filter((t) => t.reference_number.startsWith(prefix));
			const expectedPaid = rows.filter((row) => !row.reference.includes('MISMATCH'));
			expect(ours.map((t) => t.reference_number).sort()).toEqual(expectedPaid.map((row) => row.reference).sort());
			for (const row of expectedPaid) {
				const transfer = ours.find((t) => t.reference_number === row.reference)!;
				expect(transfer.amount).toBe(row.amount.includes('.') ? row.amount : `${row.amount}.00`);
				expect(transfer.beneficiary_account_number).toBe(row.account_number);
				expect(transfer.status).toBe(row === rows[19] ? 'failed' : 'successful');
			}

			const outcomes = stack.receiver.received('/outcomes');
			expect(outcomes).toHaveLength(20);
			// Written back by row number, as the example matches sheet rows.
			const outcomeOf = (reference: string) => {
				const written = outcomes.find((o) => String(o.row_number) === String(rows.find((row) => row.reference === reference)?.row_number));
				return `${String(written?.status)}: ${String(written?.message)}`;
			};
			for (const row of rows.slice(0, 17)) expect(outcomeOf(row.reference)).toBe('successful: paid');
			expect(outcomeOf(`${prefix}-FAILS`)).toMatch(/^failed: the bank accepted it and it failed/);
			expect(outcomeOf(`${prefix}-MISMATCH-1`)).toMatch(/^not sent: not sent: .*Someone Else 0/);
			expect(outcomeOf(`${prefix}-MISMATCH-2`)).toMatch(/^not sent: not sent: .*Someone Else 1/);
		});

		test('the daily report workflow executes without error and posts its summary', async () => {
			const response = await fetch(`${stack.n8n.url}/${stack.workflows.report.webhookPath}`, { method: 'POST' });
			expect(response.status).toBe(200);
			const run = await eventually('the report execution', async () => finished(await executions(stack.workflows.report.id))[0]);
			expect(run.status).toBe('success');
			const [summary] = nodeOutput(run, 'Summarise');
			expect(String(summary.text)).toMatch(/Balance across active accounts: NGN \d+\.\d+/);
			expect(stack.receiver.received('/chat').map((m) => String(m.text))).toEqual(
				expect.arrayContaining([expect.stringContaining('Settled yesterday:')]),
			);
		});

		test('the editor shows the collection-alert workflow with the BaaS nodes (screenshot)', async () => {
			const shot = await screenshotWorkflow(
				stack.n8n.url,
				stack.cookie,
				stack.shipped.collection,
				`collection-alert-n8n-${line.version}`,
			);
			expect(statSync(shot.file).size).toBe(shot.bytes);
			expect(shot.bytes).toBeGreaterThan(20_000);
			expect(shot.distinctColours).toBeGreaterThan(50);
			expect(shot.nodeTitles.join(' ')).toContain('Money Received');
			expect(shot.nodeTitles.join(' ')).toContain('Append to Sheet');
		}, 300_000);

		describeEditor(() => stack, line.version);

		// After the editor: its tests expect the sandbox's credentials to be the only ones saved, and these save others.
		describeSignInGuard(() => stack, line);
	});
}
