import { readFileSync } from 'node:fs';
import path from 'node:path';

import { formatAmount } from '../../../sandbox/data/money';
import { listExecutions, nodeOutput } from '../../../scripts/n8n/api';
import type { Execution } from '../../../scripts/n8n/api';
import { EXAMPLES_DIR } from '../../../scripts/n8n/examples';
import type { N8nLine } from '../../../scripts/n8n/paths';
import type { PlannedPayout } from '../../../scripts/n8n/payoutRows';
import { asRow, plannedPayouts } from '../../../scripts/n8n/payoutRows';
import { waitFor } from '../../support/waitFor';
import { parseCsv, writeCsv } from './csv';
import type { ExamplesStack } from './examplesStack';
import { startExamplesStack } from './examplesStack';
import { reconciliationTests } from './examplesRecon';
import { submitFormFile } from './formDownload';

interface LedgerTransfer {
	reference_number: string;
	transaction_id: string;
	status: string;
	amount: string;
	beneficiary_account_number: string;
}

const done = (executions: Execution[]) => executions.filter((e) => !['running', 'new', 'waiting'].includes(e.status));

/** The outcome a payout row (of the table or the CSV) should have, given what the bank holds. */
function expectOutcome(row: Record<string, unknown>, planned: PlannedPayout, transfers: LedgerTransfer[], bankName: string | undefined) {
	const label = `${planned.reference} (${planned.expected})`;
	expect({ label, status: row.status }).toEqual({ label, status: planned.expected });
	const message = String(row.message);
	if (planned.expected === 'successful') {
		expect(message).toBe('paid');
		expect(row.transaction_id).toBe(transfers.find((t) => t.reference_number === planned.reference)?.transaction_id);
	} else if (planned.expected === 'refused') {
		// The inactive account: the bank refused the transfer, so it is "not made".
		expect(message).toMatch(/^not made: .*inactive/);
	} else if (planned.expected === 'not sent') {
		expect(message).toMatch(/^not sent: /);
		// A name that differs is named beside the bank's; the closed account is one the bank does not know.
		expect(message).toContain(bankName ? bankName : 'not found');
		if (bankName) expect(message).toContain(planned.account_name);
	} else {
		expect(message).toMatch(/^the bank accepted it and it failed/);
	}
}

/** Transfers of these references at the bank: exactly one per row that should reach it, as the row says. */
function expectPaidOnce(planned: PlannedPayout[], transfers: LedgerTransfer[]) {
	const prefix = planned[0].reference.split('-')[0];
	const ours = transfers.filter((t) => t.reference_number.startsWith(`${prefix}-`));
	const reaching = planned.filter((p) => p.expected === 'successful' || p.expected === 'failed');
	expect(ours.map((t) => t.reference_number).sort()).toEqual(reaching.map((p) => p.reference).sort());
	for (const p of reaching) {
		const transfer = ours.find((t) => t.reference_number === p.reference)!;
		expect([transfer.amount, transfer.beneficiary_account_number, transfer.status]).toEqual([p.amount, p.account_number, p.expected]);
	}
}

/** The columns of a payouts CSV, and what the results CSV adds after them. */
const PAYOUT_COLUMNS = ['reference', 'account_number', 'bank_code', 'account_name', 'amount', 'narration'];
const RESULT_COLUMNS = ['status', 'message', 'transaction_id', 'updated_at'];

/** The e2e tests of the examples that need no account, on one n8n line: each run as shipped, its results read back. */
export function describeExamples(line: N8nLine, port: number) {
	jest.setTimeout(300_000);
	describe(`no-account examples on n8n ${line.version} (${line.name})`, () => {
		let stack: ExamplesStack;
		const started = Date.now();
		/** The collection the alert test makes, which the safety net's two triggers both bring later. */
		const collection = { reference: `E2E-EX-COL-${line.nodeMajor}`, at: 0 };
		const ledger = async () =>
			((await (await fetch(`${stack.bank.url}/__sandbox/ledger`)).json()) as { data: { transfers: LedgerTransfer[] } }).data;
		const chat = async () => ((await (await fetch(`${stack.bank.url}/__sandbox/chat`)).json()) as { data: Array<{ text: string }> }).data;
		const bankName = (p: PlannedPayout) =>
			p.expected !== 'not sent' || p.account_number === stack.bank.seed.closedAccountNumber
				? undefined
				: stack.bank.seed.externalAccounts.find((a) => a.account_number === p.account_number)?.account_name;
		/** Starts a workflow through its stand-in webhook and returns its finished execution. */
		const run = async (webhookPath: string, workflowId: string) => {
			const before = (await listExecutions(stack.n8n.url, stack.apiKey, workflowId)).length;
			// n8n 2.41 registers a published workflow's production webhook a moment after the publish call answers
			// (measured: 404 at once, 200 three seconds later); a 404 starts nothing, so it is asked again.
			const answer = await waitFor(
				`n8n to register ${webhookPath}`,
				async () => {
					const response = await fetch(`${stack.n8n.url}/${webhookPath}`, { method: 'POST' });
					return response.status === 404 ? undefined : response;
				},
				{ timeoutMs: 30_000, intervalMs: 1_000 },
			);
			expect(answer.status).toBe(200);
			return await waitFor(
				`an execution of ${workflowId}`,
				async () => {
					const finished = done(await listExecutions(stack.n8n.url, stack.apiKey, workflowId));
					return finished.length > before ? finished[0] : undefined;
				},
				{ timeoutMs: 180_000, intervalMs: 1_000 },
			);
		};

		beforeAll(async () => {
			stack = await startExamplesStack(line, port);
			process.stdout.write(`e2e examples n8n ${line.version}: stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
		}, 40 * 60_000);
		afterAll(async () => {
			await stack?.stop();
			process.stdout.write(`e2e examples n8n ${line.version}: ${((Date.now() - started) / 1000).toFixed(1)} s in all\n`);
		}, 120_000);

		// First: they check the planned day against every settlement the bank holds, before other tests add some.
		reconciliationTests({ stack: () => stack, run });

		test('the daily report writes a row and a chat message with the numbers the bank holds', async () => {
			const execution = await run(stack.paths.dailyReport, 'ExDailyReportCht');
			expect(execution.status).toBe('success');
			const [row] = nodeOutput(execution, 'Add Report Row');
			const settledOn = String(row.settled_on);
			const { bank } = stack.bank;
			const [from, to] = [Date.parse(`${settledOn}T00:00:00Z`), Date.parse(`${settledOn}T00:00:00Z`) + 86_400_000];
			const settled = bank.settlements.filter((s) => s.businessId === bank.main.id && s.settlementDateMs >= from && s.settlementDateMs < to);
			const balance = bank.businessAccounts(bank.main.id).filter((a) => a.status === 'active').reduce((sum, a) => sum + a.balance, 0n);
			expect(settled.length).toBeGreaterThan(0);
			expect(row).toMatchObject({
				total_balance: formatAmount(balance),
				settled_count: String(settled.length),
				settled_amount: formatAmount(settled.reduce((sum, s) => sum + s.amount, 0n)),
			});
			const [stored] = (await stack.tables.rows(stack.tableIds['BaaS daily reports'])).filter((r) => r.settled_on === settledOn);
			expect(stored).toMatchObject({ total_balance: row.total_balance, settled_amount: row.settled_amount });
			const report = (await chat()).find((m) => m.text.includes('Settled yesterday:'));
			expect(report?.text).toContain(`Balance across active accounts: NGN ${formatAmount(balance)}`);
			expect(report?.text).toContain(`Settled yesterday: ${settled.length} credits, NGN ${formatAmount(settled.reduce((sum, s) => sum + s.amount, 0n))}`);
		});

		test('a collection becomes a row in "BaaS collections" and a message in the sandbox chat', async () => {
			const account = stack.bank.seed.accounts.find((a) => a.account_type === 'virtual' && a.status === 'active')!;
			const reference = collection.reference;
			collection.at = Date.now();
			const response = await fetch(`${stack.bank.url}/__sandbox/collections`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ account_number: account.account_number, amount: '2500.75', reference }),
			});
			expect(response.status).toBe(200);
			const row = await waitFor(
				'the collection row',
				async () => (await stack.tables.rows(stack.tableIds['BaaS collections'])).find((r) => r.reference === reference),
				{ timeoutMs: 60_000, intervalMs: 500 },
			);
			expect(row).toMatchObject({ account_number: account.account_number, account_name: account.account_name, amount: '2500.75' });
			const message = await waitFor('the chat message', async () => (await chat()).find((m) => m.text.includes(reference)), { timeoutMs: 30_000, intervalMs: 500 });
			expect(message.text).toBe(`NGN 2500.75 received on ${account.account_number} (${account.account_name}), reference ${reference}`);
		});

		test('payouts from the data table: matching names paid once, the rest not paid with the reason, every outcome written back', async () => {
			const execution = await run(stack.paths.payoutsFromTable, 'ExPayoutsFromTbl');
			expect(execution.status).toBe('success');
			const { transfers } = await ledger();
			expectPaidOnce(stack.tablePayouts, transfers);
			const rows = await stack.tables.rows(stack.tableIds['BaaS payouts']);
			expect(rows).toHaveLength(stack.tablePayouts.length);
			for (const planned of stack.tablePayouts) {
				expectOutcome(rows.find((r) => r.reference === planned.reference)!, planned, transfers, bankName(planned));
			}

			// Run again with a paid row added once more (same reference): rows already done are not read, and the
			// copy is a duplicate of the paid row, which keeps its outcome; nothing is paid twice.
			const paid = stack.tablePayouts[0];
			const paidRow = rows.find((r) => r.reference === paid.reference)!;
			await stack.tables.insert(stack.tableIds['BaaS payouts'], [asRow(paid)]);
			expect((await run(stack.paths.payoutsFromTable, 'ExPayoutsFromTbl')).status).toBe('success');
			expect((await ledger()).transfers.filter((t) => t.reference_number === paid.reference)).toHaveLength(1);
			const again = await stack.tables.rows(stack.tableIds['BaaS payouts']);
			const copy = again.find((r) => r.reference === paid.reference && r.id !== paidRow.id)!;
			expect([copy.status, copy.message, copy.transaction_id]).toEqual([
				'not sent',
				`not sent: reference ${paid.reference} is already used by row ${paidRow.id}: give row ${copy.id} a reference of its own`,
				'',
			]);
			for (const row of rows) expect(again.find((r) => r.id === row.id)).toEqual(row);
		});

		test('two rows of the table with one reference: one transfer, the first row paid with its transaction id, the second a duplicate not sent', async () => {
			const [planned] = plannedPayouts(stack.bank.seed, `TWIN${line.nodeMajor}`);
			const tableId = stack.tableIds['BaaS payouts'];
			await stack.tables.insert(tableId, [
				{ ...asRow(planned), amount: '100.00' },
				{ ...asRow(planned), amount: '250.00', narration: 'the same reference again' },
			]);
			expect((await run(stack.paths.payoutsFromTable, 'ExPayoutsFromTbl')).status).toBe('success');
			const transfers = (await ledger()).transfers.filter((t) => t.reference_number === planned.reference);
			expect(transfers.map((t) => [t.amount, t.status])).toEqual([['100.00', 'successful']]);
			const [first, second] = (await stack.tables.rows(tableId)).filter((r) => r.reference === planned.reference).sort((a, b) => a.id - b.id);
			expect([first.amount, first.status, first.message, first.transaction_id]).toEqual(['100.00', 'successful', 'paid', transfers[0].transaction_id]);
			expect([second.amount, second.status, second.message, second.transaction_id]).toEqual([
				'250.00',
				'not sent',
				`not sent: reference ${planned.reference} is already used by row ${first.id}: give row ${second.id} a reference of its own`,
				'',
			]);
		});

		test('a payout whose answer is lost is written "unknown" with how to check, and the next run settles it without paying twice', async () => {
			const [row] = plannedPayouts(stack.bank.seed, `LOST${line.nodeMajor}`).map(asRow);
			await stack.tables.insert(stack.tableIds['BaaS payouts'], [row]);
			// The bank makes the transfer but its answer is lost, and every status read fails: nothing settles it.
			const fault = (spec: object) =>
				fetch(`${stack.bank.url}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
			await fault({ match: 'funds_transfer', drop: 'after' });
			await fault({ match: 'transaction_status', errorCode: '80' });
			try {
				expect((await run(stack.paths.payoutsFromTable, 'ExPayoutsFromTbl')).status).toBe('success');
			} finally {
				await fetch(`${stack.bank.url}/__sandbox/faults`, { method: 'DELETE' });
			}
			const written = () => stack.tables.rows(stack.tableIds['BaaS payouts']).then((rows) => rows.find((r) => r.reference === row.reference)!);
			const lost = await written();
			expect(lost.status).toBe('unknown');
			expect(lost.message).toContain(`outcome unknown: check with BaaS → Transfer → Get Status, reference ${row.reference}`);
			expect(lost.message).not.toMatch(/not made/);
			expect((await ledger()).transfers.filter((t) => t.reference_number === row.reference)).toHaveLength(1);

			expect((await run(stack.paths.payoutsFromTable, 'ExPayoutsFromTbl')).status).toBe('success');
			expect([(await written()).status, (await written()).message]).toEqual(['successful', 'paid']);
			expect((await ledger()).transfers.filter((t) => t.reference_number === row.reference)).toHaveLength(1);
		});

		test('payouts from a CSV file: the form hands back a CSV with one result line per line of examples/payouts-sample.csv', async () => {
			const sample = readFileSync(path.join(EXAMPLES_DIR, 'payouts-sample.csv'), 'utf8');
			// The shipped sample holds these rows (test/sandbox/example-payouts.test.ts).
			const planned = plannedPayouts(stack.bank.seed, 'CSV');
			const result = await submitFormFile(`${stack.n8n.url}/form/baas-payouts`, { name: 'payouts-sample.csv', type: 'text/csv', content: sample });
			expect(result.fileName).toBe('payout-results.csv');
			const lines = parseCsv(result.text);
			expect(lines.map((l) => l.reference).sort()).toEqual(planned.map((p) => p.reference).sort());
			const { transfers } = await ledger();
			expectPaidOnce(planned, transfers);
			for (const p of planned) {
				const resultLine = lines.find((l) => l.reference === p.reference)!;
				expect(resultLine).toMatchObject({ account_number: p.account_number, amount: p.amount });
				expectOutcome(resultLine, p, transfers, bankName(p));
			}
		});

		test('payouts from a CSV with lines to fix: every line back in the file\'s order with all its columns, "not sent" for what never reached the bank, formulas neutralised', async () => {
			const planned = plannedPayouts(stack.bank.seed, `MIX${line.nodeMajor}`);
			const [paid, emptyAmount, negative, intra, nameDiffers, , , inactive, failing] = planned;
			const receipt = '=HYPERLINK("http://example.invalid/receipts/1","Open receipt")';
			// Lines 2 to 9 of the file, failing at each stage: before anything is sent, at the name check, at the
			// node's own check of the transfer, at the bank; a payment, a failure, and a reference used twice.
			const lines: Array<Record<string, string>> = [
				{ ...asRow(paid), narration: 'March salary, part 1', receipt },
				{ ...asRow(emptyAmount), amount: '', receipt: '' },
				{ ...asRow(nameDiffers), receipt: '@SUM(1+1)' },
				{ ...asRow(inactive), receipt: '' },
				{ ...asRow(negative), amount: '-5.00', receipt: '' },
				{ ...asRow(paid), amount: '100.00', narration: 'the same reference again', receipt: '' },
				{ ...asRow(failing), receipt: '' },
				{ ...asRow(intra), narration: 'Bonus', receipt: '-2+3' },
			];
			const columns = [...PAYOUT_COLUMNS, 'receipt'];
			const result = await submitFormFile(`${stack.n8n.url}/form/baas-payouts`, { name: 'mixed.csv', type: 'text/csv', content: writeCsv(columns, lines) });
			const header = result.text.replace(/^\uFEFF/, '').split(/\r?\n/)[0];
			expect(header).toBe([...columns, ...RESULT_COLUMNS].join(','));
			const back = parseCsv(result.text);
			expect(back.map((l) => l.reference)).toEqual(lines.map((l) => l.reference));
			// Every input cell comes back as it was, but those a spreadsheet would run as a formula (a plain
			// negative number is not one).
			const neutral: Record<string, string> = { [receipt]: `'${receipt}`, '@SUM(1+1)': "'@SUM(1+1)", '-2+3': "'-2+3" };
			for (const [i, line] of lines.entries()) {
				expect(Object.fromEntries(columns.map((c) => [c, back[i][c]]))).toEqual(Object.fromEntries(columns.map((c) => [c, neutral[line[c]] ?? line[c]])));
			}
			const { transfers } = await ledger();
			const held = (reference: string) => transfers.filter((t) => t.reference_number === reference);
			const outcome = (i: number) => [back[i].status, back[i].message];
			expect(back[0]).toMatchObject({ status: 'successful', message: 'paid', transaction_id: held(paid.reference)[0]?.transaction_id });
			expect(outcome(1)).toEqual(['not sent', 'not sent: amount is empty on line 3: fill it in']);
			expect(back[2].status).toBe('not sent');
			expect(back[2].message).toMatch(/^not sent: /);
			expect(back[2].message).toContain(bankName(nameDiffers)!);
			expect(back[2].message).toContain(nameDiffers.account_name);
			expect(back[2].message).toMatch(/\(line 4\)\./);
			expect(back[3].status).toBe('refused');
			expect(back[3].message).toMatch(/^not made: .*inactive/);
			expect(back[4].status).toBe('not sent');
			expect(back[4].message).toMatch(/^not sent: Amount must be a positive amount .*\(got "-5\.00"\) on line 6\. .*nothing was sent to the bank/);
			expect(outcome(5)).toEqual(['not sent', `not sent: reference ${paid.reference} is already used by line 2: give line 7 a reference of its own`]);
			expect(back[6]).toMatchObject({ status: 'failed', transaction_id: held(failing.reference)[0]?.transaction_id });
			expect(back[7]).toMatchObject({ status: 'successful', message: 'paid', transaction_id: held(intra.reference)[0]?.transaction_id });
			for (const [i, l] of back.entries()) if (l.status === 'not sent' || l.status === 'refused') expect({ i, id: l.transaction_id }).toEqual({ i, id: '' });
			// The bank holds exactly one transfer per reference that reached it, with the first line's amount.
			const ours = transfers.filter((t) => t.reference_number.startsWith(`MIX${line.nodeMajor}-`));
			expect(ours.map((t) => [t.reference_number, t.amount]).sort()).toEqual(
				[paid, failing, intra].map((p) => [p.reference, p.amount]).sort(),
			);
		});

		test('payouts from a file as a spreadsheet saves it (BOM, ";", a quoted line break, a ragged line): every line answered, the page says what was wrong and where', async () => {
			const [first, second, ragged, intra, nameDiffers] = plannedPayouts(stack.bank.seed, `SEMI${line.nodeMajor}`);
			const columns = [...PAYOUT_COLUMNS, 'note'];
			const cell = (value: string) => (/[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
			const lineOf = (row: Record<string, string>, extra: string[] = []) => [...columns.map((c) => cell(row[c] ?? '')), ...extra].join(';');
			const lines = [
				{ ...asRow(first), narration: 'Salary; March', note: 'approved by Ada\r\nand by Obi' },
				{ ...asRow(ragged), note: 'one value too many' },
				{ ...asRow(second), note: '' },
				{ ...asRow(nameDiffers), note: '' },
				{ ...asRow(intra), note: '' },
			];
			const content = `\uFEFF${[columns.join(';'), lineOf(lines[0]), lineOf(lines[1], ['extra']), ...lines.slice(2).map((l) => lineOf(l))].join('\r\n')}\r\n`;
			const result = await submitFormFile(`${stack.n8n.url}/form/baas-payouts`, { name: 'semicolons.csv', type: 'text/csv', content });
			const back = parseCsv(result.text);
			expect(back.map((l) => [l.reference, l.status])).toEqual([
				[first.reference, 'successful'],
				[ragged.reference, 'not sent'],
				[second.reference, 'successful'],
				[nameDiffers.reference, 'not sent'],
				[intra.reference, 'successful'],
			]);
			expect([back[0].narration, back[0].note]).toEqual(['Salary; March', 'approved by Ada\r\nand by Obi']);
			const raggedWhy = 'not sent: line 3 has 8 values where the header has 7 columns: a value holding a semicolon needs double quotes around it, or the line has a value too many ("extra")';
			expect(back[1].message).toBe(raggedWhy);
			// The name check's own count ("item 3") becomes the line of the file.
			expect(back[3].message).toMatch(/^not sent: Name mismatch for account \d+: .* \(line 5\)\./);
			expect(back[3].message).not.toMatch(/item \d/);
			const { transfers } = await ledger();
			const ours = transfers.filter((t) => t.reference_number.startsWith(`SEMI${line.nodeMajor}-`));
			expect(ours.map((t) => [t.reference_number, t.amount, t.status]).sort()).toEqual(
				[first, second, intra].map((p) => [p.reference, p.amount, 'successful']).sort(),
			);
			// The page the person sees counts the outcomes and names each line not paid, with why.
			expect(result.message).toContain('5 lines read: 3 paid, 2 not sent.');
			expect(result.message).toContain(`line 3 (reference ${ragged.reference}): ${raggedWhy}`);
			expect(result.message).toMatch(new RegExp(`line 5 \\(reference ${nameDiffers.reference}\\): not sent: Name mismatch .*\\(line 5\\)`));
		});

		test('payouts from a CSV whose every line is to fix: the results still come back, one line each, nothing sent', async () => {
			const [first, second] = plannedPayouts(stack.bank.seed, `FIX${line.nodeMajor}`).map(asRow);
			const lines = [
				{ ...first, account_name: '' },
				{ ...second, amount: '' },
			];
			const before = (await ledger()).transfers.length;
			const result = await submitFormFile(`${stack.n8n.url}/form/baas-payouts`, { name: 'to-fix.csv', type: 'text/csv', content: writeCsv(PAYOUT_COLUMNS, lines) });
			expect(parseCsv(result.text).map((l) => [l.reference, l.status, l.message])).toEqual([
				[first.reference, 'not sent', 'not sent: account_name is empty on line 2: fill it in'],
				[second.reference, 'not sent', 'not sent: amount is empty on line 3: fill it in'],
			]);
			expect((await ledger()).transfers.length).toBe(before);
		});

		test('the webhook-with-polling safety net, published as npm run dev publishes it: a collection reads the balance once, whichever trigger brings it first', async () => {
			const brought = (e: Execution) =>
				[...nodeOutput(e, 'Money Received (webhook)'), ...nodeOutput(e, 'Money Received (polling)')].some(
					(item) => (item.data as { reference_number?: string } | undefined)?.reference_number === collection.reference,
				);
			// The webhook brings it at once; the poll at its next minute.
			const runs = await waitFor(
				'both triggers of the safety net to bring the collection',
				async () => {
					const seen = done(await listExecutions(stack.n8n.url, stack.apiKey, 'ExWebhookAndPoll')).filter(brought);
					return seen.length >= 2 ? seen : undefined;
				},
				{ timeoutMs: 180_000, intervalMs: 2_000 },
			);
			const polledAfter = ((Date.now() - collection.at) / 1000).toFixed(0);
			const firstLook = done(await listExecutions(stack.n8n.url, stack.apiKey, 'ExFirstLookSbx01')).filter((e) =>
				nodeOutput(e, 'Money Received').some((item) => (item.data as { reference_number?: string }).reference_number === collection.reference),
			);
			const balanceReads = runs.filter((e) => nodeOutput(e, 'Balance Now').length > 0);
			process.stdout.write(
				`e2e examples n8n ${line.version}: one collection → safety net runs=${runs.length} (balance read in ${balanceReads.length}), both triggers seen within ${polledAfter} s; first look runs=${firstLook.length}\n`,
			);
			expect(runs.map((e) => e.status)).toEqual(['success', 'success']);
			expect(balanceReads).toHaveLength(1);
			expect(firstLook).toHaveLength(1);
		});
	});
}
